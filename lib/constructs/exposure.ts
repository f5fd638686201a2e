/**
 * What every exposure construct, on either cloud, takes and gives: the one
 * abstraction the `-lb` stacks compose (see lib/stacks/compose-exposures.ts).
 */
import { ITerraformDependable } from 'cdktf';
import { admitsAnyAddress } from '../model/cidr';
import { ExposureMode } from '../model/modes';

/** The props every exposure construct takes; each construct adds what its kind of load balancer needs. */
export interface ExposureProps {
  /** Exposure mode: names the Kubernetes objects (`echo-<mode>`) and labels them (`hoplab.dev/exposure`). Required. */
  readonly mode: ExposureMode;
  /** Namespace of the app (a reference to the namespace resource, so the namespace is destroyed after the exposure). Required. */
  readonly namespace: string;
  /** Labels of the Pods to expose: the Service selector. Required. */
  readonly selector: Readonly<Record<string, string>>;
  /** The Pods' container port, by name or number (a Kubernetes IntOrString). Required. */
  readonly targetPort: string | number;
  /**
   * What the exposure's objects are created after and deleted before.
   * @default - nothing (on EKS it is required: the AWS Load Balancer Controller's release)
   */
  readonly dependsOn?: ITerraformDependable[];
}

/** What a `-lb` stack needs of every exposure construct. */
export interface Exposure {
  /** The exposure mode. */
  readonly mode: ExposureMode;
  /** `http://<load balancer address>/`, read back from the Kubernetes object's status once the load balancer exists. */
  readonly url: string;
  /**
   * The objects that make the load balancer and its target groups or NEGs. The
   * app's Pods are created after them (readiness gates are injected only into
   * Pods created once the targets exist) and deleted before them.
   */
  readonly loadBalancerObjects: ITerraformDependable[];
}

/** `port[].targetPort` of a Service from {@link ExposureProps.targetPort}: the provider takes it as a string. */
export function serviceTargetPort(targetPort: string | number): string {
  return String(targetPort);
}

/**
 * `spec.loadBalancerSourceRanges` of a `type: LoadBalancer` Service from the
 * client blocks it admits, or nothing when they admit any address (a Service
 * without the field admits any address: the synthesized default stays as it was).
 */
export function serviceSourceRanges(blocks: readonly string[] | undefined): { loadBalancerSourceRanges?: string[] } {
  return blocks === undefined || admitsAnyAddress(blocks) ? {} : { loadBalancerSourceRanges: [...blocks] };
}
