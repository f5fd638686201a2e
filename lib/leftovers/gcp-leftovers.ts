import { spawnSync } from 'node:child_process';
import { Leftover } from './leftover';

/** Compute Engine API base; tests point it at recorded responses served on loopback. */
export const COMPUTE_API = 'https://compute.googleapis.com/compute/v1';
/** GKE API base. */
export const CONTAINER_API = 'https://container.googleapis.com/v1';

export interface GcpLeftoverQuery {
  readonly env: string;
  readonly project: string;
  /** The environment's VPC network name (`<env>-gke`). */
  readonly networkName: string;
  /** The GKE cluster name (`<env>-gke`). */
  readonly clusterName: string;
  /** OAuth access token with read access to the project. */
  readonly accessToken: string;
  /** @default COMPUTE_API */
  readonly computeApi?: string;
  /** @default CONTAINER_API */
  readonly containerApi?: string;
  /** Per-request timeout. @default 20000 */
  readonly timeoutMs?: number;
}

interface Item {
  readonly name: string;
  readonly selfLink?: string;
  readonly network?: string;
  readonly [key: string]: unknown;
}

/**
 * An access token for the Google APIs: `GOOGLE_OAUTH_ACCESS_TOKEN` if set (as
 * the google provider reads it), else `gcloud auth print-access-token`.
 * Returns undefined when neither is available.
 */
export function gcpAccessToken(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.GOOGLE_OAUTH_ACCESS_TOKEN) return env.GOOGLE_OAUTH_ACCESS_TOKEN;
  const result = spawnSync('gcloud', ['auth', 'print-access-token'], { encoding: 'utf8', timeout: 20_000 });
  return result.status === 0 && result.stdout.trim() ? result.stdout.trim() : undefined;
}

/** The path of a resource URL from `projects/` on, so URLs of different API versions compare equal. */
const resourcePath = (url: string | undefined) => (url ? url.replace(/^.*?(projects\/)/, '$1') : '');

/**
 * Lists what is left of an environment in a Google Cloud project, anchored on
 * its network (names of GKE-created load-balancer pieces carry no environment):
 * the network and what lives in it (subnetworks, routers, firewall rules,
 * NEGs, instance groups), then what points at those (backend services, URL
 * maps, target proxies, forwarding rules, health checks), target pools of the
 * environment's nodes, and the GKE cluster itself.
 */
export async function findGcpLeftovers(query: GcpLeftoverQuery): Promise<Leftover[]> {
  const compute = query.computeApi ?? COMPUTE_API;
  const project = `${compute}/projects/${query.project}`;
  const get = async (url: string): Promise<Record<string, unknown>> => {
    const response = await fetch(url, { headers: { Authorization: `Bearer ${query.accessToken}` }, signal: AbortSignal.timeout(query.timeoutMs ?? 20_000) });
    if (response.status === 404) return {};
    if (!response.ok) throw new Error(`GET ${url} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const list = async (url: string): Promise<Item[]> => {
    const items: Item[] = [];
    let pageToken: string | undefined;
    do {
      const page = await get(pageToken ? `${url}${url.includes('?') ? '&' : '?'}pageToken=${encodeURIComponent(pageToken)}` : url);
      items.push(...((page.items as Item[] | undefined) ?? []));
      pageToken = page.nextPageToken as string | undefined;
    } while (pageToken);
    return items;
  };
  const aggregated = async (kind: string): Promise<Item[]> => {
    const items: Item[] = [];
    let pageToken: string | undefined;
    do {
      const url = `${project}/aggregated/${kind}${pageToken ? `?pageToken=${encodeURIComponent(pageToken)}` : ''}`;
      const page = await get(url);
      for (const scoped of Object.values((page.items as Record<string, Record<string, unknown>> | undefined) ?? {})) {
        items.push(...((scoped[kind] as Item[] | undefined) ?? []));
      }
      pageToken = page.nextPageToken as string | undefined;
    } while (pageToken);
    return items;
  };

  const networkPath = `projects/${query.project}/global/networks/${query.networkName}`;
  const inNetwork = (item: Item) => resourcePath(item.network) === networkPath;
  const found: Leftover[] = [];
  const add = (kind: string, items: Item[], matchedBy: string) => {
    for (const item of items) found.push({ cloud: 'gcp', kind, id: resourcePath(item.selfLink) || item.name, matchedBy });
  };

  const [networks, subnetworks, routers, firewalls, negs, instanceGroups, backendServices, regionBackendServices, urlMaps, httpProxies, httpsProxies, globalRules, regionalRules, targetPools] =
    await Promise.all([
      list(`${project}/global/networks`),
      aggregated('subnetworks'),
      aggregated('routers'),
      list(`${project}/global/firewalls`),
      aggregated('networkEndpointGroups'),
      aggregated('instanceGroups'),
      list(`${project}/global/backendServices`),
      aggregated('backendServices'),
      list(`${project}/global/urlMaps`),
      list(`${project}/global/targetHttpProxies`),
      list(`${project}/global/targetHttpsProxies`),
      list(`${project}/global/forwardingRules`),
      aggregated('forwardingRules'),
      aggregated('targetPools'),
    ]);

  const byNetwork = `network ${query.networkName}`;
  add('compute:network', networks.filter((n) => n.name === query.networkName), 'network name');
  add('compute:subnetwork', subnetworks.filter(inNetwork), byNetwork);
  add('compute:router', routers.filter(inNetwork), byNetwork);
  add('compute:firewall', firewalls.filter(inNetwork), byNetwork);
  const envNegs = negs.filter(inNetwork);
  const envGroups = instanceGroups.filter(inNetwork);
  add('compute:network-endpoint-group', envNegs, byNetwork);
  add('compute:instance-group', envGroups, byNetwork);

  const groupPaths = new Set([...envNegs, ...envGroups].map((g) => resourcePath(g.selfLink)));
  const usesGroup = (service: Item) => ((service.backends as { group?: string }[] | undefined) ?? []).some((b) => groupPaths.has(resourcePath(b.group)));
  const envServices = [...backendServices, ...regionBackendServices].filter((s) => usesGroup(s) || inNetwork(s));
  add('compute:backend-service', envServices, 'backends in the environment network');
  const servicePaths = new Set(envServices.map((s) => resourcePath(s.selfLink)));

  const envUrlMaps = urlMaps.filter((m) => {
    const services = [m.defaultService as string | undefined, ...((m.pathMatchers as { defaultService?: string }[] | undefined) ?? []).map((p) => p.defaultService)];
    return services.some((s) => servicePaths.has(resourcePath(s)));
  });
  add('compute:url-map', envUrlMaps, 'routes to an environment backend service');
  const urlMapPaths = new Set(envUrlMaps.map((m) => resourcePath(m.selfLink)));
  const envProxies = [...httpProxies, ...httpsProxies].filter((p) => urlMapPaths.has(resourcePath(p.urlMap as string | undefined)));
  add('compute:target-proxy', envProxies, 'uses an environment URL map');

  const nodePrefix = `gke-${query.clusterName}-`;
  const envPools = targetPools.filter((pool) => ((pool.instances as string[] | undefined) ?? []).some((i) => (i.split('/').pop() ?? '').startsWith(nodePrefix)));
  add('compute:target-pool', envPools, `targets nodes named ${nodePrefix}*`);

  const targetPaths = new Set([...envProxies, ...envPools].map((t) => resourcePath(t.selfLink)));
  const envRules = [...globalRules, ...regionalRules].filter((r) => targetPaths.has(resourcePath(r.target as string | undefined)) || servicePaths.has(resourcePath(r.backendService as string | undefined)) || inNetwork(r));
  add('compute:forwarding-rule', envRules, 'sends to an environment target');

  const healthChecks = new Set([...envServices, ...envPools].flatMap((s) => ((s.healthChecks as string[] | undefined) ?? []).map(resourcePath)));
  for (const path of healthChecks) found.push({ cloud: 'gcp', kind: 'compute:health-check', id: path, matchedBy: 'used by an environment backend' });

  const clusters = (await get(`${query.containerApi ?? CONTAINER_API}/projects/${query.project}/locations/-/clusters`)).clusters as Item[] | undefined;
  add('container:cluster', (clusters ?? []).filter((c) => c.name === query.clusterName), 'cluster name');
  return found;
}
