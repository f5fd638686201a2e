import { dependable, TerraformOutput, TerraformStack } from 'cdktf';
import { Exposure, ExposureProps } from '../constructs/exposure';
import { DemoApp } from '../constructs/k8s/demo-app';
import { Cloud, ExposureOutput, exposureOutputName } from '../model/contract';
import { EXPOSURE_BUILT_BY, ExposureConstruct, ExposureFacts, exposureFacts } from '../model/exposure-facts';
import { ExposureMode } from '../model/modes';

/** Builds one exposure construct of a kind: `props` are the shared ones with the mode set, `facts` its row of EXPOSURE_FACTS. */
export type ExposureBuilder = (stack: TerraformStack, id: string, props: ExposureProps, facts: ExposureFacts) => Exposure;

/** What one `-lb` stack's exposures share and how its cloud words their outputs. */
export interface ComposeExposuresProps {
  /** The cloud: picks the facts and the construct of each mode (EXPOSURE_FACTS, EXPOSURE_BUILT_BY). Required. */
  readonly cloud: Cloud;
  /** The configured exposure modes, in order; modes the cloud does not offer (EXPOSURE_UNAVAILABLE) are left out. Required. */
  readonly modes: readonly ExposureMode[];
  /** The props every exposure shares (namespace, selector, target port, what they come after). Required. */
  readonly shared: Omit<ExposureProps, 'mode'>;
  /** One builder per kind of exposure construct this cloud uses. Required. */
  readonly builders: Readonly<Partial<Record<ExposureConstruct, ExposureBuilder>>>;
  /** The construct id of a mode's exposure: a contract, since ids are Terraform addresses. Required. */
  readonly constructId: (mode: ExposureMode) => string;
  /** The app whose Pods are created after every exposure's load balancer objects (and deleted before them). Required. */
  readonly app: DemoApp;
  /** The output's `backends` words for a mode's facts (see exposureBackends). Required. */
  readonly backends: (facts: ExposureFacts) => string;
  /**
   * The output's `client_ip_seen_as` words: the facts say "SNAT by kube-proxy", which each cluster's datapath rewords.
   * @default - the facts' words
   */
  readonly clientIpSeenAs?: (words: string) => string;
  /**
   * The output's `health_check` words: the facts name kube-proxy's health port, which a cluster without kube-proxy rewords.
   * @default - the facts' words
   */
  readonly healthCheck?: (words: string) => string;
  /** The description of a mode's output. Required. */
  readonly outputDescription: (mode: ExposureMode) => string;
}

/**
 * Adds one exposure per offered mode to `stack`, each built by the construct
 * EXPOSURE_BUILT_BY names and exported as `exposure_<mode>` with its facts, so
 * the outputs and the resources cannot disagree; then makes the app's Pods
 * come after every exposure's load balancer objects: readiness gates (EKS's
 * target group binding, GKE's NEG gate) are injected only at Pod creation, and
 * only for targets that exist by then. On destroy the Pods go first.
 */
export function composeExposures(stack: TerraformStack, props: ComposeExposuresProps): Exposure[] {
  const exposures: Exposure[] = [];
  for (const mode of props.modes) {
    const facts = exposureFacts(props.cloud, mode);
    if (!facts) continue;
    const kind = EXPOSURE_BUILT_BY[props.cloud][mode];
    const build = kind === undefined ? undefined : props.builders[kind];
    if (kind === undefined || build === undefined) {
      throw new Error(
        `composeExposures: ${props.cloud} mode "${mode}" has facts but ${
          kind === undefined ? 'no EXPOSURE_BUILT_BY entry' : `no builder for construct kind "${kind}"`
        }; add it in lib/model/exposure-facts.ts and the ${props.cloud} -lb stack`,
      );
    }
    const exposure = build(stack, props.constructId(mode), { ...props.shared, mode }, facts);
    exposures.push(exposure);
    const value: ExposureOutput = {
      mode,
      cloud: props.cloud,
      url: exposure.url,
      ...facts,
      backends: props.backends(facts),
      client_ip_seen_as: props.clientIpSeenAs ? props.clientIpSeenAs(facts.client_ip_seen_as) : facts.client_ip_seen_as,
      health_check: props.healthCheck ? props.healthCheck(facts.health_check) : facts.health_check,
    };
    new TerraformOutput(stack, exposureOutputName(mode), { value, description: props.outputDescription(mode) });
  }
  const deployment = props.app.deployment;
  deployment.dependsOn = [...(deployment.dependsOn ?? []), ...exposures.flatMap((e) => e.loadBalancerObjects).map((r) => dependable(r))];
  return exposures;
}
