/**
 * The steps deploy and teardown take on GKE beside Terraform:
 * - deploy: before `<env>-gcp-cluster` is applied, refuse while the
 *   environment's Cloud Armor policy, which the config no longer asks for, is
 *   still attached to backend services (the cluster stack would delete it
 *   before the lb stack lets go of it); before `<env>-gcp-lb` is planned, wait
 *   until the cluster serves the CRDs its objects are (Gateway API,
 *   BackendConfig, GCPBackendPolicy, as configured); after it is applied,
 *   detach that policy from what still holds it;
 * - teardown: around `<env>-gcp-lb`'s destroy, and before `<env>-gcp-cluster`
 *   deletes the policy and the network, remove the environment's orphaned
 *   backend services and their NEGs (gke-backend-services.ts); after
 *   `<env>-gcp-lb` is destroyed and before `<env>-gcp-cluster` deletes the
 *   network, remove the firewall rules GKE's controllers made once per cluster
 *   in that network (they outlive the Gateways and Ingresses and would block
 *   the network's deletion), and once more if the network's deletion still
 *   names one.
 */
import { LabConfig } from '../../config/schema';
import { gkeLocation } from '../../constructs/gcp/gke-cluster';
import { labNames } from '../../model/names';
import { GcpSlot } from '../../model/slots';
import { admitsAnyAddress } from '../../model/cidr';
import { gkeNeedsSecurityPolicy } from '../../model/exposure-facts';
import { GcpCredentials, gcpCredentials } from '../../kit/google/google-credentials';
import { removeGkeControllerFirewalls } from './gke-firewall-cleanup';
import { gkeControllerFirewall } from '../../lab/leftovers/gke-firewall-rules';
import { crdWords, gcpLbCrds, waitForGatewayCrds } from './gke-gateway-crds';
import { detachPolicy, GkeBackendOptions, policyUsers, removeOrphanedBackendServices } from './gke-backend-services';

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

  /** What every backend call of `env` is given (its lines go to `stack`'s), or undefined without credentials, saying `withoutCredentials` if given. */
  private backend(env: string, stack: string, withoutCredentials?: string): GkeBackendOptions | undefined {
    const say = (line: string) => this.options.write(`  step   ${stack}: ${line}`);
    const credentials = this.credentials();
    if (!credentials) {
      if (withoutCredentials) say(withoutCredentials);
      return undefined;
    }
    const names = labNames({ name: env });
    return {
      project: this.where(env).project,
      networkName: names.gkeCluster,
      policyName: names.gkeSecurityPolicy,
      accessToken: credentials.accessToken,
      quotaProject: credentials.quotaProject,
      computeApi: this.options.overrides?.compute,
      pollMs: this.options.overrides?.pollMs,
      write: say,
    };
  }

  /** Whether the config asks for the Cloud Armor policy (a narrowed app.allowedSourceCidrs and an Ingress or Gateway exposure). */
  private wantsPolicy(): boolean {
    return gkeNeedsSecurityPolicy(this.options.config.exposures, this.options.config.app.allowedSourceCidrs);
  }

  /**
   * Deploy, before `<env>-gcp-cluster`: when the config no longer asks for the
   * Cloud Armor policy but backend services still use it, rejects (the stack
   * fails, nothing of it is applied) with the two steps that get there.
   */
  async beforeClusterApply(env: string, stack: string): Promise<void> {
    if (this.wantsPolicy()) return;
    const options = this.backend(env, stack, 'no Google credentials: not checked whether a Cloud Armor policy the config no longer asks for is still in use');
    if (!options) return;
    let users: string[];
    try {
      users = await policyUsers(options);
    } catch (error) {
      // Terraform reads the same project next and says what is wrong with it; this check only adds to it.
      return options.write(`could not check whether Cloud Armor policy ${options.policyName} is still in use (${error instanceof Error ? error.message : String(error)}); applying anyway`);
    }
    if (users.length === 0) return;
    const why = admitsAnyAddress(this.options.config.app.allowedSourceCidrs) ? 'app.allowedSourceCidrs admits every address' : 'no Ingress or Gateway exposure is left in exposures';
    throw new Error(
      `Cloud Armor policy ${options.policyName} is still attached to backend service${users.length === 1 ? '' : 's'} ${users.join(', ')}, ` +
        `but the config no longer asks for it (${why}): applying ${stack} would delete it before ${labNames({ name: env }).gcpLbStack} lets go of it, ` +
        `and Google refuses to delete a policy in use. Deploy in two steps: npx hoplab deploy --stacks gcp-lb --env ${env} ` +
        '(the lb stack without the policy; deploy then detaches it from what still holds it), then npx hoplab deploy',
    );
  }

  /** Deploy, before `<env>-gcp-lb`: waits for the CRDs its objects are (Gateway API, BackendConfig, GCPBackendPolicy, as configured); rejects (the stack fails) if they never come. */
  async beforeLbApply(env: string, stack: string): Promise<void> {
    const { config } = this.options;
    const crds = gcpLbCrds(config.exposures, config.app.allowedSourceCidrs);
    if (crds.length === 0) return;
    const credentials = this.credentials();
    if (!credentials) {
      throw new Error(`no Google credentials to check that the cluster serves the ${crdWords(crds)}: run gcloud auth application-default login (as for Terraform), or set GOOGLE_OAUTH_ACCESS_TOKEN`);
    }
    await waitForGatewayCrds({
      crds,
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
   * Deploy, after `<env>-gcp-lb`: when the config no longer asks for the Cloud
   * Armor policy, detaches it from the backend services that still hold it
   * (GKE's Ingress controller leaves a policy attached when its BackendConfig
   * goes), so that the cluster stack can delete it next.
   */
  async afterLbApply(env: string, stack: string): Promise<void> {
    if (this.wantsPolicy()) return;
    const options = this.backend(env, stack, 'no Google credentials: a Cloud Armor policy the config no longer asks for was not looked for');
    if (!options) return;
    try {
      await detachPolicy(options);
    } catch (error) {
      // The lb stack is applied; the cluster stack's check says again what still holds the policy.
      options.write(
        `${error instanceof Error ? error.message : String(error)}; detach it (gcloud compute backend-services update <name> --global --security-policy="" --project ${
          options.project
        }), then run npx hoplab deploy`,
      );
    }
  }

  /**
   * Teardown of `<env>-gcp-lb`: the environment's orphaned backend services
   * (and their NEGs) first, left by an earlier teardown; `destroy`; if it
   * fails (the namespace waits on NEGs an orphan holds), the orphans the
   * Gateway just left, and `destroy` once more when there were any.
   */
  async destroyLb(env: string, stack: string, destroy: () => Promise<void>): Promise<void> {
    await this.orphans(env, stack, false);
    try {
      await destroy();
    } catch (error) {
      const removed = await this.orphans(env, stack, false);
      if (removed === 0) throw error;
      this.options.write(`  step   ${stack}: destroying again, now that the orphaned backend services are gone`);
      await destroy();
    }
  }

  /**
   * Teardown of `<env>-gcp-cluster` (after `<env>-gcp-lb`): the orphaned
   * backend services (they hold the Cloud Armor policy) and the firewall
   * cleanup, then `destroy`; if the network's deletion is still blocked by
   * such a rule (a controller made it again while the cluster ran), the
   * cleanup once more and `destroy` again.
   */
  async destroyCluster(env: string, stack: string, destroy: () => Promise<void>): Promise<void> {
    const networkName = labNames({ name: env }).gkeCluster;
    const { project } = this.where(env);
    await this.orphans(env, stack, true);
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

  /** Removes the environment's orphaned backend services and their NEGs (said only when there are some); how many. A failure is said and the teardown goes on. */
  private async orphans(env: string, stack: string, sayWithoutCredentials: boolean): Promise<number> {
    const options = this.backend(
      env,
      stack,
      sayWithoutCredentials ? `no Google credentials: orphaned backend services of ${env} not looked for; deleting the Cloud Armor policy or the network may fail on one` : undefined,
    );
    if (!options) return 0;
    try {
      return (await removeOrphanedBackendServices(options)).length;
    } catch (error) {
      options.write(
        `${error instanceof Error ? error.message : String(error)}; going on. If a delete fails on it, delete it ` +
          `(gcloud compute backend-services delete <name> --global --project ${options.project}) and run npx hoplab teardown again`,
      );
      return 0;
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
