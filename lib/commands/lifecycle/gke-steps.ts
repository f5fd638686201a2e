/**
 * The steps deploy and teardown take on GKE beside Terraform:
 * - deploy: before `<env>-gcp-lb` is planned, wait until the cluster serves
 *   the Gateway API CRDs (when the `gateway` exposure is configured);
 * - teardown: after `<env>-gcp-lb` is destroyed and before `<env>-gcp-cluster`
 *   deletes the network, remove the firewall rules GKE's controllers made once
 *   per cluster in that network (they outlive the Gateways and Ingresses and
 *   would block the network's deletion), and once more if the network's
 *   deletion still names one.
 */
import { LabConfig } from '../../config/schema';
import { gkeLocation } from '../../constructs/gcp/gke-cluster';
import { labNames } from '../../model/names';
import { GcpSlot } from '../../model/slots';
import { GcpCredentials, gcpCredentials } from '../../kit/google/google-credentials';
import { removeGkeControllerFirewalls } from './gke-firewall-cleanup';
import { gkeControllerFirewall } from '../../lab/leftovers/gke-firewall-rules';
import { waitForGatewayCrds } from './gke-gateway-crds';

export interface GkeStepsOptions {
  readonly config: LabConfig;
  /** Each environment's GCP slot (placement: where its state says, for a deployed one). @default - gcp.project, gcp.region and gcp.zones */
  readonly slots?: ReadonlyMap<string, GcpSlot>;
  /** Progress lines. */
  readonly write: (line: string) => void;
  readonly signal?: AbortSignal;
  /** Overrides for tests: loopback APIs, credentials, shorter waits. */
  readonly overrides?: {
    readonly compute?: string;
    readonly container?: string;
    /** The cluster's Kubernetes API base instead of `https://<endpoint>`. */
    readonly kubernetes?: string;
    /** `null`: no credentials to be had. */
    readonly credentials?: GcpCredentials | null;
    readonly crdWaitMs?: number;
    readonly pollMs?: number;
  };
}

/** A Terraform error that a per-cluster GKE firewall rule blocked deleting the network (`... is already being used by '.../firewalls/<rule>'`). */
export function blockingFirewall(error: unknown, project: string, networkName: string): string | undefined {
  const message = error instanceof Error ? error.message : String(error);
  for (const match of message.matchAll(/already being used by '[^']*\/firewalls\/([a-z0-9-]+)'/g)) {
    // The name decides whether to clean up again; the cleanup itself only deletes rules whose network URL is this network's.
    if (gkeControllerFirewall({ name: match[1], network: `projects/${project}/global/networks/${networkName}` }, project, networkName)) return match[1];
  }
  return undefined;
}

/** The GKE steps of one lifecycle run (credentials are asked for once: each gcloud call takes a second). */
export class GkeSteps {
  private creds: GcpCredentials | null | undefined;

  constructor(private readonly options: GkeStepsOptions) {}

  private credentials(): GcpCredentials | null {
    if (this.creds === undefined) this.creds = this.options.overrides?.credentials !== undefined ? this.options.overrides.credentials : gcpCredentials() ?? null;
    return this.creds;
  }

  /** Where `env`'s cluster is: its slot's project and location. */
  private where(env: string): { readonly project: string; readonly location: string } {
    const { gcp } = this.options.config;
    const slot = this.options.slots?.get(env) ?? { project: gcp.project, region: gcp.region, zones: gcp.zones };
    return { project: slot.project, location: gkeLocation(slot.region, slot.zones).location };
  }

  /** Deploy, before `<env>-gcp-lb`: waits for the Gateway API CRDs when the gateway exposure is configured; rejects (the stack fails) if they never come. */
  async beforeLbApply(env: string, stack: string): Promise<void> {
    const { config } = this.options;
    if (!config.exposures.includes('gateway')) return;
    const credentials = this.credentials();
    if (!credentials) {
      throw new Error('no Google credentials to check that the cluster serves the Gateway API CRDs: run gcloud auth application-default login (as for Terraform), or set GOOGLE_OAUTH_ACCESS_TOKEN');
    }
    await waitForGatewayCrds({
      ...this.where(env),
      clusterName: labNames({ name: env }).gkeCluster,
      accessToken: credentials.accessToken,
      quotaProject: credentials.quotaProject,
      containerApi: this.options.overrides?.container,
      kubernetesApi: this.options.overrides?.kubernetes,
      waitMs: this.options.overrides?.crdWaitMs,
      pollMs: this.options.overrides?.pollMs,
      progressMs: this.options.overrides?.pollMs === undefined ? undefined : 0,
      write: (line) => this.options.write(`  wait   ${stack}: ${line}`),
      signal: this.options.signal,
    });
  }

  /**
   * Teardown of `<env>-gcp-cluster` (after `<env>-gcp-lb`): the firewall
   * cleanup, then `destroy`; if the network's deletion is still blocked by
   * such a rule (a controller made it again while the cluster ran), the
   * cleanup once more and `destroy` again.
   */
  async destroyCluster(env: string, stack: string, destroy: () => Promise<void>): Promise<void> {
    const networkName = labNames({ name: env }).gkeCluster;
    const { project } = this.where(env);
    await this.cleanup(project, networkName, stack);
    try {
      await destroy();
    } catch (error) {
      const rule = blockingFirewall(error, project, networkName);
      if (!rule) throw error;
      this.options.write(`  step   ${stack}: deleting network ${networkName} was blocked by firewall rule ${rule}; removing it and destroying again`);
      await this.cleanup(project, networkName, stack);
      await destroy();
    }
  }

  /** Removes the rules; a failure is said and the destroy goes on (it deletes the billed cluster before it reaches the network). */
  private async cleanup(project: string, networkName: string, stack: string): Promise<void> {
    const say = (line: string) => this.options.write(`  step   ${stack}: ${line}`);
    const credentials = this.credentials();
    if (!credentials) {
      say(`no Google credentials: GKE-made firewall rules of network ${networkName} not looked for; deleting the network may fail on one`);
      return;
    }
    try {
      const removed = await removeGkeControllerFirewalls({
        project,
        networkName,
        accessToken: credentials.accessToken,
        quotaProject: credentials.quotaProject,
        computeApi: this.options.overrides?.compute,
        pollMs: this.options.overrides?.pollMs,
        write: say,
      });
      if (removed.length === 0) say(`no GKE-made per-cluster firewall rule in network ${networkName}`);
    } catch (error) {
      say(
        `${error instanceof Error ? error.message : String(error)}; destroying anyway (the cluster goes first). If deleting the network fails on it, ` +
          `delete it (gcloud compute firewall-rules delete <rule> --project ${project}) and run npm run teardown again`,
      );
    }
  }
}
