/**
 * Before an environment's GKE network is deleted: removes the firewall rules
 * GKE's controllers made once per cluster and network (the Gateway
 * controller's `gkegw1-...-l7-<network>-...` above all) from that network
 * only. Nothing Terraform manages and nothing of another network is touched:
 * a rule must have one of the exact names of gke-firewall-rules.ts and that
 * network's URL.
 */
import { ApiError, GCP_REQUEST_TIMEOUT_MS, GoogleApiReader } from '../../kit/google/google-api-reader';
import { GOOGLE_CALLS as CALLS } from '../../lab/checks/google-calls';
import { gkeControllerFirewall } from '../../lab/leftovers/gke-firewall-rules';
import { untilDone } from './gke-operations';

export interface GkeFirewallCleanupOptions {
  readonly project: string;
  /** The environment's network (`<env>-gke`). */
  readonly networkName: string;
  readonly accessToken: string;
  /** @default - none (see gcpCredentials) */
  readonly quotaProject?: string;
  /** @default GOOGLE_API_BASES.compute */
  readonly computeApi?: string;
  /** Bound of each request. @default GCP_REQUEST_TIMEOUT_MS */
  readonly timeoutMs?: number;
  /** Between two looks at a delete operation. @default 2000 */
  readonly pollMs?: number;
  /** Longest wait for one delete operation. @default 300000 (5 minutes; a firewall rule goes in seconds) */
  readonly operationTimeoutMs?: number;
  /** One line per rule: what it is, and that it was deleted. */
  readonly write: (line: string) => void;
}

/** A rule that was removed (or was gone already). */
export interface RemovedFirewall {
  readonly name: string;
  readonly why: string;
}

/**
 * Lists the project's firewall rules, deletes each per-cluster GKE controller
 * rule of the network (printing it first), and waits for each delete
 * operation to finish. Rejects with the rule and the reason when a delete is
 * refused, fails or does not finish in time.
 */
export async function removeGkeControllerFirewalls(options: GkeFirewallCleanupOptions): Promise<RemovedFirewall[]> {
  const api = new GoogleApiReader({
    accessToken: options.accessToken,
    timeoutMs: options.timeoutMs ?? GCP_REQUEST_TIMEOUT_MS,
    quotaProject: options.quotaProject,
    bases: { compute: options.computeApi },
  });
  const project = { project: options.project };
  const rules = (await api.list(CALLS.firewallsList, project))
    .map((rule) => ({ rule, made: gkeControllerFirewall(rule, options.project, options.networkName) }))
    .filter((r) => r.made !== undefined)
    .sort((a, b) => (a.rule.name < b.rule.name ? -1 : a.rule.name > b.rule.name ? 1 : 0));
  const removed: RemovedFirewall[] = [];
  for (const { rule, made } of rules) {
    const why = made!.why;
    options.write(`firewall rule ${rule.name} in network ${options.networkName}: ${why}; a network with a rule on it cannot be deleted: deleting it`);
    const started = Date.now();
    let operation: Record<string, unknown>;
    try {
      operation = await api.call(CALLS.firewallsDelete, { ...project, firewall: rule.name });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        options.write(`firewall rule ${rule.name}: already gone`);
        removed.push({ name: rule.name, why });
        continue;
      }
      throw new Error(`could not delete firewall rule ${rule.name} of network ${options.networkName}: ${error instanceof Error ? error.message : String(error)}`);
    }
    await untilDone(api, { project: options.project, pollMs: options.pollMs, operationTimeoutMs: options.operationTimeoutMs }, `deleting firewall rule ${rule.name}`, operation);
    options.write(`firewall rule ${rule.name}: deleted in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    removed.push({ name: rule.name, why });
  }
  return removed;
}
