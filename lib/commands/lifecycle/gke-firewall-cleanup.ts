/**
 * Before an environment's GKE network is deleted: removes the firewall rules
 * GKE's controllers made once per cluster and network (the Gateway
 * controller's `gkegw1-...-l7-<network>-...` above all) from that network
 * only. Nothing Terraform manages and nothing of another network is touched:
 * a rule must have one of the exact names of gke-firewall-rules.ts and that
 * network's URL.
 */
import { ApiError, GCP_REQUEST_TIMEOUT_MS, GoogleApiReader } from '../../kit/google/google-api-reader';
import { GOOGLE_CALLS as CALLS } from '../../kit/google/google-calls';
import { gkeControllerFirewall } from '../../lab/leftovers/gke-firewall-rules';

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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
    await untilDone(api, options, rule.name, operation);
    options.write(`firewall rule ${rule.name}: deleted in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    removed.push({ name: rule.name, why });
  }
  return removed;
}

/** Reads a Compute Engine operation until its status is DONE; an operation error or the time bound rejects. */
async function untilDone(api: GoogleApiReader, options: GkeFirewallCleanupOptions, rule: string, first: Record<string, unknown>): Promise<void> {
  const deadline = Date.now() + (options.operationTimeoutMs ?? 300_000);
  let operation = first;
  for (;;) {
    if (operation.status === 'DONE') {
      const errors = ((operation.error as { errors?: { code?: string; message?: string }[] } | undefined)?.errors ?? []).map((e) => `${e.code ?? 'ERROR'}: ${e.message ?? ''}`);
      if (errors.length > 0) throw new Error(`deleting firewall rule ${rule} failed: ${errors.join('; ')}`);
      return;
    }
    if (typeof operation.name !== 'string' || !operation.name) {
      throw new Error(`deleting firewall rule ${rule}: the answer is not an operation (no name): ${JSON.stringify(operation).slice(0, 200)}`);
    }
    if (Date.now() >= deadline) {
      throw new Error(`deleting firewall rule ${rule}: operation ${operation.name} still ${String(operation.status)} after ${Math.round((options.operationTimeoutMs ?? 300_000) / 1000)} s`);
    }
    await sleep(options.pollMs ?? 2000);
    operation = await api.call(CALLS.globalOperationsGet, { project: options.project, operation: operation.name });
  }
}
