/**
 * What a Google Cloud project holds, as the leftover check reads it: every
 * list it needs, all at once (Compute Engine's global and aggregated lists,
 * GKE's clusters, IAM's service accounts, the project's IAM policy), through
 * the Google REST reader (bearer token, a bounded time per request, every page,
 * GETs tried again when the API fails for a moment). Any error, timeout,
 * unreachable scope or missing zone is an error naming the request: a check
 * that could not see everything must not report "nothing left".
 */
import { GCP_REQUEST_TIMEOUT_MS, GoogleApiReader, GoogleItem as Item, resourcePath } from '../../kit/google/google-api-reader';
import { GOOGLE_CALLS as CALLS, IAM_POLICY_V3 } from '../checks/google-calls';
import { GcpInventory, IamBinding } from './gcp-classify';

/** How the APIs are reached. */
export interface GcpApiAccess {
  /** OAuth access token with read access to the project. */
  readonly accessToken: string;
  /**
   * Sent as `x-goog-user-project` (see gcpCredentials).
   * @default - none
   */
  readonly quotaProject?: string;
  /** @default COMPUTE_API */
  readonly computeApi?: string;
  /** @default CONTAINER_API */
  readonly containerApi?: string;
  /** @default IAM_API */
  readonly iamApi?: string;
  /** @default RESOURCE_MANAGER_API */
  readonly resourceManagerApi?: string;
  /** Per-request timeout (each page of each list). @default GCP_REQUEST_TIMEOUT_MS */
  readonly timeoutMs?: number;
  /** Waits between attempts of a GET the API failed for a moment (tests: no real waiting). @default setTimeout */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** Resources that appear in both a global list and an aggregated list (which may include the `global` scope), once. */
export function unique(...lists: Item[][]): Item[] {
  const byPath = new Map<string, Item>();
  for (const item of lists.flat()) byPath.set(resourcePath(item.selfLink) || item.name, item);
  return [...byPath.values()];
}

/** The values of an object of promises, all awaited at once (Promise.all, by name). */
async function allOf<T extends Record<string, Promise<unknown>>>(promises: T): Promise<{ [K in keyof T]: Awaited<T[K]> }> {
  const entries = await Promise.all(Object.entries(promises).map(async ([key, promise]) => [key, await promise] as const));
  return Object.fromEntries(entries) as { [K in keyof T]: Awaited<T[K]> };
}

/** The reader of the APIs as `access` says to reach them. */
export function googleReader(access: GcpApiAccess): GoogleApiReader {
  return new GoogleApiReader({
    accessToken: access.accessToken,
    timeoutMs: access.timeoutMs ?? GCP_REQUEST_TIMEOUT_MS,
    quotaProject: access.quotaProject,
    ...(access.sleep ? { sleep: access.sleep } : {}),
    bases: { compute: access.computeApi, container: access.containerApi, iam: access.iamApi, resourceManager: access.resourceManagerApi },
  });
}

/** Everything of `project` the leftover check looks at. */
export async function fetchGcpInventory(project: string, access: GcpApiAccess): Promise<GcpInventory> {
  const api = googleReader(access);
  const p = { project };
  const everywhere = async (global: Item[] | Promise<Item[]>, aggregated: Promise<Item[]>) => unique(...(await Promise.all([global, aggregated])));

  const { clusterList, iamPolicy, ...lists } = await allOf({
    networks: api.list(CALLS.networksList, p),
    firewalls: api.list(CALLS.firewallsList, p),
    httpHealthChecks: api.list(CALLS.httpHealthChecksList, p),
    subnetworks: api.aggregated(CALLS.subnetworksAggregated, p),
    routers: api.aggregated(CALLS.routersAggregated, p),
    negs: api.aggregated(CALLS.networkEndpointGroupsAggregated, p),
    instanceGroups: api.aggregated(CALLS.instanceGroupsAggregated, p),
    instances: api.aggregated(CALLS.instancesAggregated, p),
    targetPools: api.aggregated(CALLS.targetPoolsAggregated, p),
    backendServices: everywhere(api.list(CALLS.backendServicesList, p), api.aggregated(CALLS.backendServicesAggregated, p)),
    urlMaps: everywhere(api.list(CALLS.urlMapsList, p), api.aggregated(CALLS.urlMapsAggregated, p)),
    httpProxies: everywhere(api.list(CALLS.targetHttpProxiesList, p), api.aggregated(CALLS.targetHttpProxiesAggregated, p)),
    httpsProxies: everywhere(api.list(CALLS.targetHttpsProxiesList, p), api.aggregated(CALLS.targetHttpsProxiesAggregated, p)),
    forwardingRules: everywhere(api.list(CALLS.globalForwardingRulesList, p), api.aggregated(CALLS.forwardingRulesAggregated, p)),
    healthChecks: everywhere(api.list(CALLS.healthChecksList, p), api.aggregated(CALLS.healthChecksAggregated, p)),
    clusterList: api.call(CALLS.clustersList, p),
    addresses: everywhere(api.list(CALLS.globalAddressesList, p), api.aggregated(CALLS.addressesAggregated, p)),
    sslCertificates: everywhere(api.list(CALLS.sslCertificatesList, p), api.aggregated(CALLS.sslCertificatesAggregated, p)),
    securityPolicies: api.list(CALLS.securityPoliciesList, p),
    serviceAccounts: api.pages(CALLS.serviceAccountsList, p, (page) => (page.accounts as Item[] | undefined) ?? []),
    iamPolicy: api.call(CALLS.getIamPolicy, p, IAM_POLICY_V3),
  });
  const missingZones = (clusterList.missingZones as string[] | undefined) ?? [];
  if (missingZones.length > 0) throw new Error(`GKE could not list clusters in ${missingZones.join(', ')} of project ${project}; run the check again`);
  return { ...lists, clusters: (clusterList.clusters as Item[] | undefined) ?? [], iamBindings: (iamPolicy.bindings as IamBinding[] | undefined) ?? [] };
}
