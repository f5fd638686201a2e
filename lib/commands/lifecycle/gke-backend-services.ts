/**
 * An environment's GKE backend services that outlive what used them, and its
 * Cloud Armor policy's attachments:
 *
 * - Orphans. GKE's Gateway controller can delete a Gateway's forwarding rule,
 *   proxy and URL map and leave its backend services
 *   (https://github.com/GoogleCloudPlatform/gke-gateway-api/issues/41, read
 *   2026-12-07). Such a backend service holds its NEGs, so the NEG controller
 *   cannot delete them and their ServiceNetworkEndpointGroup objects keep the
 *   namespace from being deleted (the `-lb` stack's destroy times out), and it
 *   holds the Cloud Armor policy, so the cluster stack cannot delete it; a
 *   second teardown meets the same. {@link removeOrphanedBackendServices}
 *   deletes the environment's own: a global backend service whose backends are
 *   NEGs of the environment's network and that no URL map and no forwarding
 *   rule uses, then those NEGs that no other backend service uses.
 * - Policy users. Which backend services use the environment's policy
 *   ({@link policyUsers}), and detaching it ({@link detachPolicy}): GKE's
 *   Ingress controller never detaches a policy by itself when the
 *   BackendConfig stops naming one (kubernetes/ingress-gce
 *   `pkg/backends/features/securitypolicy.go`: "Treat nil security policy ->
 *   ignored"; ingress-gce#2209, read 2026-12-07).
 */
import { GCP_REQUEST_TIMEOUT_MS, GoogleApiReader, GoogleItem as Item, resourcePath } from '../../kit/google/google-api-reader';
import { GOOGLE_CALLS as CALLS } from '../../lab/checks/google-calls';
import { urlMapServices } from '../../lab/leftovers/gcp-classify';
import { untilDone } from './gke-operations';

export interface GkeBackendOptions {
  readonly project: string;
  /** The environment's network (`<env>-gke`). */
  readonly networkName: string;
  /** The environment's Cloud Armor policy (`<env>-gke-sources`). */
  readonly policyName: string;
  readonly accessToken: string;
  /** @default - none (see gcpCredentials) */
  readonly quotaProject?: string;
  /** @default GOOGLE_API_BASES.compute */
  readonly computeApi?: string;
  /** Between two looks at an operation. @default 2000 */
  readonly pollMs?: number;
  /** One line per resource: what it is, and what was done. */
  readonly write: (line: string) => void;
}

/** What a project holds that decides whether a backend service is an orphan. */
export interface BackendInventory {
  readonly negs: readonly Item[];
  readonly backendServices: readonly Item[];
  readonly urlMaps: readonly Item[];
  readonly forwardingRules: readonly Item[];
}

/** An orphaned backend service, the NEGs to delete after it, and the policy it holds if any. */
export interface OrphanedBackendService {
  readonly service: Item;
  readonly negs: readonly Item[];
  readonly policy?: string;
}

const groupsOf = (service: Item) => ((service.backends as { group?: string }[] | undefined) ?? []).map((b) => resourcePath(b.group));
const nameOf = (path: string) => path.split('/').pop() ?? path;

/**
 * The environment's orphaned global backend services: every backend is a NEG
 * of `networkName`, and no URL map (default service, path rules, route rules,
 * weighted backends) and no forwarding rule names it. With each, the NEGs
 * that no other (kept) backend service uses.
 */
export function orphanedBackendServices(inventory: BackendInventory, project: string, networkName: string): OrphanedBackendService[] {
  const networkPath = `projects/${project}/global/networks/${networkName}`;
  const envNegs = new Map(inventory.negs.filter((n) => resourcePath(n.network) === networkPath).map((n) => [resourcePath(n.selfLink), n]));
  const used = new Set([
    ...inventory.urlMaps.flatMap((m) => urlMapServices(m).map(resourcePath)),
    ...inventory.forwardingRules.map((r) => resourcePath(r.backendService as string | undefined)).filter(Boolean),
  ]);
  const orphans = inventory.backendServices.filter((s) => {
    const groups = groupsOf(s);
    return !s.region && groups.length > 0 && groups.every((g) => envNegs.has(g)) && !used.has(resourcePath(s.selfLink));
  });
  const orphanPaths = new Set(orphans.map((s) => resourcePath(s.selfLink)));
  const heldByOthers = new Set(inventory.backendServices.filter((s) => !orphanPaths.has(resourcePath(s.selfLink))).flatMap(groupsOf));
  return orphans
    .map((service) => ({
      service,
      negs: groupsOf(service)
        .filter((g) => !heldByOthers.has(g))
        .map((g) => envNegs.get(g)!),
      ...(typeof service.securityPolicy === 'string' && service.securityPolicy ? { policy: nameOf(resourcePath(service.securityPolicy)) } : {}),
    }))
    .sort((a, b) => (a.service.name < b.service.name ? -1 : a.service.name > b.service.name ? 1 : 0));
}

function reader(options: GkeBackendOptions): GoogleApiReader {
  return new GoogleApiReader({ accessToken: options.accessToken, timeoutMs: GCP_REQUEST_TIMEOUT_MS, quotaProject: options.quotaProject, bases: { compute: options.computeApi } });
}

const seconds = (started: number) => `${((Date.now() - started) / 1000).toFixed(1)} s`;

/**
 * Deletes the environment's orphaned backend services, each printed first,
 * then their NEGs, waiting for each operation. Rejects naming the resource and
 * the reason when a delete is refused or fails.
 */
export async function removeOrphanedBackendServices(options: GkeBackendOptions): Promise<OrphanedBackendService[]> {
  const api = reader(options);
  const p = { project: options.project };
  const [negs, backendServices, urlMaps, forwardingRules] = await Promise.all([
    api.aggregated(CALLS.networkEndpointGroupsAggregated, p),
    api.aggregated(CALLS.backendServicesAggregated, p),
    api.aggregated(CALLS.urlMapsAggregated, p),
    api.aggregated(CALLS.forwardingRulesAggregated, p),
  ]);
  const orphans = orphanedBackendServices({ negs, backendServices, urlMaps, forwardingRules }, options.project, options.networkName);
  const wait = { project: options.project, pollMs: options.pollMs };
  for (const orphan of orphans) {
    const name = orphan.service.name;
    const policy = orphan.policy ? ` and Cloud Armor policy ${orphan.policy}` : '';
    options.write(
      `backend service ${name}: its backends are NEGs of network ${options.networkName} and no URL map or forwarding rule uses it any more ` +
        `(GKE's Gateway controller leaves them: gke-gateway-api#41); it holds ${orphan.negs.length === 1 ? 'its NEG' : 'its NEGs'}${policy}: deleting it`,
    );
    await remove(api, wait, `deleting backend service ${name}`, () => api.call(CALLS.backendServicesDelete, { ...p, backendService: name }), options.write, `backend service ${name}`);
    for (const neg of orphan.negs) {
      const zone = nameOf(String(neg.zone ?? ''));
      options.write(`network endpoint group ${neg.name} (${zone}): no backend service uses it any more: deleting it`);
      await remove(
        api,
        wait,
        `deleting network endpoint group ${neg.name}`,
        () => api.call(CALLS.networkEndpointGroupsDelete, { ...p, zone, neg: neg.name }),
        options.write,
        `network endpoint group ${neg.name}`,
      );
    }
  }
  return orphans;
}

/** One delete: its operation waited for; a 404 is "already gone". */
async function remove(
  api: GoogleApiReader,
  wait: { project: string; pollMs?: number },
  what: string,
  start: () => Promise<Record<string, unknown>>,
  write: (line: string) => void,
  label: string,
): Promise<void> {
  const started = Date.now();
  let operation: Record<string, unknown>;
  try {
    operation = await start();
  } catch (error) {
    if ((error as { status?: number }).status === 404) return void write(`${label}: already gone`);
    throw new Error(`could not delete ${label}: ${error instanceof Error ? error.message : String(error)}`);
  }
  await untilDone(api, wait, what, operation);
  write(`${label}: deleted in ${seconds(started)}`);
}

/** The global backend services that use the environment's Cloud Armor policy, by name. */
export async function policyUsers(options: GkeBackendOptions): Promise<string[]> {
  const api = reader(options);
  const policyPath = `projects/${options.project}/global/securityPolicies/${options.policyName}`;
  const services = await api.list(CALLS.backendServicesList, { project: options.project });
  return services
    .filter((s) => resourcePath(s.securityPolicy as string | undefined) === policyPath)
    .map((s) => s.name)
    .sort();
}

/** Detaches the environment's policy from every backend service that uses it (printed), waiting for each; returns their names. */
export async function detachPolicy(options: GkeBackendOptions): Promise<string[]> {
  const users = await policyUsers(options);
  const api = reader(options);
  for (const name of users) {
    const started = Date.now();
    options.write(`backend service ${name}: detaching Cloud Armor policy ${options.policyName}, which the config no longer asks for`);
    let operation: Record<string, unknown>;
    try {
      // An empty SecurityPolicyReference clears the policy (as `gcloud compute backend-services update --security-policy=""`).
      operation = await api.call(CALLS.backendServicesSetSecurityPolicy, { project: options.project, backendService: name }, { body: {} });
    } catch (error) {
      throw new Error(`could not detach Cloud Armor policy ${options.policyName} from backend service ${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
    await untilDone(api, { project: options.project, pollMs: options.pollMs }, `detaching Cloud Armor policy ${options.policyName} from backend service ${name}`, operation);
    options.write(`backend service ${name}: policy detached in ${seconds(started)}`);
  }
  return users;
}
