import { GCP_REQUEST_TIMEOUT_MS, GoogleApiReader, GoogleItem as Item, resourcePath } from '../../kit/google/google-api-reader';
import { GOOGLE_CALLS as CALLS } from '../../kit/google/google-calls';
import { gkeControllerFirewall } from './gke-firewall-rules';
import { Leftover } from './leftover';

export { COMPUTE_API, CONTAINER_API, gcpAccessToken, gcpCredentials } from '../../kit/google/google-api-reader';

export interface GcpLeftoverQuery {
  readonly env: string;
  readonly project: string;
  /** The environment's VPC network name (`<env>-gke`). */
  readonly networkName: string;
  /** The GKE cluster name (`<env>-gke`). */
  readonly clusterName: string;
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
  /**
   * Account id of the nodes' service account (`<env>-gke-nodes`, see GkeNodeServiceAccount).
   * @default `${clusterName}-nodes`
   */
  readonly nodeServiceAccountId?: string;
  /**
   * Name of the Cloud Armor policy of a narrowed `app.allowedSourceCidrs` (`<env>-gke-sources`, see GkeSourceSecurityPolicy).
   * @default `${clusterName}-sources`
   */
  readonly securityPolicyName?: string;
  /** Per-request timeout (each page of each list). @default GCP_REQUEST_TIMEOUT_MS */
  readonly timeoutMs?: number;
  /** Waits between attempts of a GET the API failed for a moment (tests: no real waiting). @default setTimeout */
  readonly sleep?: (ms: number) => Promise<void>;
  /**
   * `environment`: everything of the environment (after destroying its cluster stack).
   * `controller`: only what GKE's load-balancer controllers made outside Terraform
   * (after destroying only the `-lb` stack, while the cluster and its network stay).
   * @default 'environment'
   */
  readonly scope?: 'environment' | 'controller';
}

/** Kinds that belong to the cluster stack (Terraform or the node pool), not to the load-balancer controllers. */
const CLUSTER_STACK_KINDS = new Set([
  'container:cluster',
  'compute:security-policy',
  'compute:instance',
  'compute:router',
  'compute:subnetwork',
  'compute:network',
  'iam:project-binding',
  'iam:service-account',
]);

/**
 * With the cluster kept: only the controllers' pieces. Their instance groups are the `k8s*` ones; their firewall
 * rules the `k8s*` ones and the Gateway controller's `gkegw1-*` (the cluster's own are `gke-<cluster>-*`, Terraform's `<env>-gke-*`).
 */
function controllerMade(leftover: Leftover): boolean {
  if (CLUSTER_STACK_KINDS.has(leftover.kind)) return false;
  const name = leftover.id.split('/').pop() ?? '';
  if (leftover.kind === 'compute:firewall') return name.startsWith('k8s') || name.startsWith('gkegw1-');
  if (leftover.kind === 'compute:instance-group') return name.startsWith('k8s');
  return true;
}

/** The order leftovers are listed in: one that can be deleted comes before what it uses. */
const KIND_ORDER = [
  'container:cluster',
  'compute:instance',
  'compute:forwarding-rule',
  'compute:address',
  'compute:target-proxy',
  'compute:ssl-certificate',
  'compute:url-map',
  'compute:backend-service',
  'compute:security-policy',
  'compute:target-pool',
  'compute:health-check',
  'compute:network-endpoint-group',
  'compute:instance-group',
  'compute:firewall',
  'compute:router',
  'compute:subnetwork',
  'compute:network',
  'iam:project-binding',
  'iam:service-account',
] as const;
type Kind = (typeof KIND_ORDER)[number];

/** Resources that appear in both a global list and an aggregated list (which may include the `global` scope), once. */
function unique(...lists: Item[][]): Item[] {
  const byPath = new Map<string, Item>();
  for (const item of lists.flat()) byPath.set(resourcePath(item.selfLink) || item.name, item);
  return [...byPath.values()];
}

/**
 * The cluster ids GKE's controllers write into the names of what they create
 * (see kubernetes/ingress-gce `pkg/utils/namer`): `k8s-ig--<uid>`,
 * `k8s-be-<port>--<uid>`, `k8s-fw-l7--<uid>` carry the Ingress controller's
 * cluster uid; NEGs `k8s1-<uid[:8]>-<ns>-<svc>-<port>-<hash>`; L4 and v2
 * frontend names `k8s2-[<tcp|udp|um|tp|fr...>-]<id8>-...` and `k8s3-<id8>-...`
 * a hash of the kube-system namespace uid.
 */
const SHORT_ID = /^k8s[123]-(?:[a-z0-9]{2,3}-)?([a-z0-9]{8})-/;
const LONG_ID = /--([a-z0-9]+)$/;
/**
 * GKE's Gateway controller names its load-balancer pieces (URL maps, target
 * proxies, forwarding rules, backend services, health checks)
 * `gkegw1-<4-character cluster hash>-<namespace>-<name>-...`; its NEGs are `k8s1-...`.
 */
const GATEWAY_ID = /^gkegw1-([a-z0-9]{4})-/;

class GkeIds {
  private readonly short = new Set<string>();
  private readonly long = new Set<string>();
  private readonly gateway = new Set<string>();

  /** Learns a Gateway controller's cluster hash (from the network's `gkegw1-<hash>-l7-...` firewall rule). */
  learnGatewayHash(hash: string): void {
    this.gateway.add(hash);
  }

  /** Learns the Gateway controller's cluster hash from `gkegw1-` pieces already linked to the environment. */
  learnGateway(items: readonly Item[]): void {
    for (const { name } of items) {
      const hash = GATEWAY_ID.exec(name)?.[1];
      if (hash) this.gateway.add(hash);
    }
  }

  /** Learns the ids in the names of resources known to be the environment's. */
  learn(items: readonly Item[]): void {
    for (const { name } of items) {
      const short = SHORT_ID.exec(name)?.[1];
      if (short) this.short.add(short);
      const long = LONG_ID.exec(name)?.[1];
      if (long && name.startsWith('k8s-') && long.length >= 8) {
        this.long.add(long);
        this.short.add(long.slice(0, 8));
      }
    }
  }

  /** The id in `name` that is the environment's, if any. */
  match(name: string): string | undefined {
    const gatewayHash = GATEWAY_ID.exec(name)?.[1];
    if (gatewayHash && this.gateway.has(gatewayHash)) return `gkegw1-${gatewayHash}`;
    const short = SHORT_ID.exec(name)?.[1];
    if (short && this.short.has(short)) return short;
    const long = name.startsWith('k8s-') ? LONG_ID.exec(name)?.[1] : undefined;
    if (long && (this.long.has(long) || (long.length >= 8 && this.short.has(long.slice(0, 8))))) return long;
    return undefined;
  }
}

/**
 * Lists what is left of an environment in a Google Cloud project.
 *
 * The names GKE's controllers give load-balancer pieces carry no environment,
 * so the check anchors on the environment's network and walks the references:
 * - in the network: subnetworks, routers (with their NATs), firewall rules,
 *   NEGs, instance groups, VM instances (`network` / `networkInterfaces[].network`);
 * - backend services (global and regional) whose `backends[].group` is one of
 *   those NEGs or instance groups; URL maps whose default service, path
 *   matchers, path rules or route rules use those backend services; target
 *   HTTP(S) proxies whose `urlMap` is one of those; forwarding rules whose
 *   `target` is one of those proxies or target pools, or whose
 *   `backendService` is one of those backend services (backend
 *   service-based passthrough NLBs), or that are in the network (internal);
 *   health checks (global, regional, legacy HTTP) that those backend
 *   services and target pools name in `healthChecks`;
 * - legacy target pools whose `instances` are VMs of the network or that
 *   share their name with a legacy `k8s-fw-<name>` firewall rule of the network;
 * - what is no longer linked (an empty instance group has no network; a
 *   health check outlives its backend service): GKE names that carry one of
 *   the cluster ids found in the names of the network's NEGs and firewall rules,
 *   or the Gateway controller's `gkegw1-<hash>` of a Gateway piece found linked;
 * - reserved addresses used by its forwarding rules, in its network, or labelled
 *   `hoplab-env`, and SSL certificates its HTTPS proxies use;
 * - the GKE cluster, by name; the Cloud Armor policy (`<env>-gke-sources`), by exact name;
 * - the nodes' service account (`<env>-gke-nodes@...`) and its project IAM
 *   binding, by exact email (so `lab` never matches `lab2-gke-nodes`).
 *
 * Leftovers come in an order they can be deleted in. Any API error, timeout,
 * unreachable scope or missing zone is an error naming the request: a check
 * that could not see everything must not report "nothing left".
 */
export async function findGcpLeftovers(query: GcpLeftoverQuery): Promise<Leftover[]> {
  const api = new GoogleApiReader({
    accessToken: query.accessToken,
    timeoutMs: query.timeoutMs ?? GCP_REQUEST_TIMEOUT_MS,
    quotaProject: query.quotaProject,
    ...(query.sleep ? { sleep: query.sleep } : {}),
    bases: { compute: query.computeApi, container: query.containerApi, iam: query.iamApi, resourceManager: query.resourceManagerApi },
  });
  const p = { project: query.project };
  const everywhere = async (global: Item[] | Promise<Item[]>, aggregated: Promise<Item[]>) => unique(...(await Promise.all([global, aggregated])));

  const [
    networks,
    firewalls,
    httpHealthChecks,
    subnetworks,
    routers,
    negs,
    instanceGroups,
    instances,
    targetPools,
    backendServices,
    urlMaps,
    httpProxies,
    httpsProxies,
    forwardingRules,
    healthChecks,
    clusterList,
    addresses,
    sslCertificates,
    securityPolicies,
    serviceAccounts,
    iamPolicy,
  ] = await Promise.all([
    api.list(CALLS.networksList, p),
    api.list(CALLS.firewallsList, p),
    api.list(CALLS.httpHealthChecksList, p),
    api.aggregated(CALLS.subnetworksAggregated, p),
    api.aggregated(CALLS.routersAggregated, p),
    api.aggregated(CALLS.networkEndpointGroupsAggregated, p),
    api.aggregated(CALLS.instanceGroupsAggregated, p),
    api.aggregated(CALLS.instancesAggregated, p),
    api.aggregated(CALLS.targetPoolsAggregated, p),
    everywhere(api.list(CALLS.backendServicesList, p), api.aggregated(CALLS.backendServicesAggregated, p)),
    everywhere(api.list(CALLS.urlMapsList, p), api.aggregated(CALLS.urlMapsAggregated, p)),
    everywhere(api.list(CALLS.targetHttpProxiesList, p), api.aggregated(CALLS.targetHttpProxiesAggregated, p)),
    everywhere(api.list(CALLS.targetHttpsProxiesList, p), api.aggregated(CALLS.targetHttpsProxiesAggregated, p)),
    everywhere(api.list(CALLS.globalForwardingRulesList, p), api.aggregated(CALLS.forwardingRulesAggregated, p)),
    everywhere(api.list(CALLS.healthChecksList, p), api.aggregated(CALLS.healthChecksAggregated, p)),
    api.call(CALLS.clustersList, p),
    everywhere(api.list(CALLS.globalAddressesList, p), api.aggregated(CALLS.addressesAggregated, p)),
    everywhere(api.list(CALLS.sslCertificatesList, p), api.aggregated(CALLS.sslCertificatesAggregated, p)),
    api.list(CALLS.securityPoliciesList, p),
    api.pages(CALLS.serviceAccountsList, p, (page) => (page.accounts as Item[] | undefined) ?? []),
    api.call(CALLS.getIamPolicy, p, { body: {} }),
  ]);

  const found = new Map<string, Leftover>();
  const add = (kind: Kind, items: readonly Item[], matchedBy: (item: Item) => string) => {
    for (const item of items) {
      const id = resourcePath(item.selfLink) || item.name;
      if (!found.has(id)) found.set(id, { cloud: 'gcp', kind, id, matchedBy: matchedBy(item) });
    }
  };
  const paths = (items: readonly Item[]) => new Set(items.map((i) => resourcePath(i.selfLink)));

  // 1. What lives in the network.
  const networkPath = `projects/${query.project}/global/networks/${query.networkName}`;
  const inNetwork = (item: Item) => resourcePath(item.network) === networkPath;
  const byNetwork = () => `in network ${query.networkName}`;
  const envNetworks = networks.filter((n) => resourcePath(n.selfLink) === networkPath || n.name === query.networkName);
  const envSubnets = subnetworks.filter(inNetwork);
  const envRouters = routers.filter(inNetwork);
  const envFirewalls = firewalls.filter(inNetwork);
  const envNegs = negs.filter(inNetwork);
  const envInstances = instances.filter((vm) => ((vm.networkInterfaces as { network?: string }[] | undefined) ?? []).some((nic) => resourcePath(nic.network) === networkPath));

  const ids = new GkeIds();
  ids.learn([...envFirewalls, ...envNegs, ...instanceGroups.filter(inNetwork)]);
  // The Gateway controller's firewall rule of the network names its cluster id: what the Gateway left is found by it even when no link is left.
  const gateway = gatewayApiPieces(envFirewalls, query.project, query.networkName);
  for (const hash of gateway.clusterIds) ids.learnGatewayHash(hash);
  const byId = (item: Item) => {
    const id = ids.match(item.name);
    return id ? `GKE name with cluster id ${id} (from network ${query.networkName})` : undefined;
  };
  const linkedOrNamed = (linked: (item: Item) => string | undefined) => (item: Item) => linked(item) ?? byId(item);
  const pick = (items: readonly Item[], why: (item: Item) => string | undefined) => {
    const picked = items.filter((item) => why(item) !== undefined);
    return { items: picked, why: (item: Item) => why(item) as string };
  };

  const groups = pick(
    instanceGroups,
    linkedOrNamed((g) => (inNetwork(g) ? byNetwork() : undefined)),
  );
  const groupPaths = paths([...envNegs, ...groups.items]);

  // 2. Backend services over those groups, and the frontends that use them.
  const services = pick(
    backendServices,
    linkedOrNamed((s) => {
      if (((s.backends as { group?: string }[] | undefined) ?? []).some((b) => groupPaths.has(resourcePath(b.group)))) return 'backends are NEGs or instance groups of the environment';
      return inNetwork(s) ? byNetwork() : undefined;
    }),
  );
  const servicePaths = paths(services.items);
  // Gateway pieces linked so far tell the Gateway controller's hash, for the ones whose links are gone.
  ids.learnGateway(services.items);
  const maps = pick(
    urlMaps,
    linkedOrNamed((m) => (urlMapServices(m).some((s) => servicePaths.has(resourcePath(s))) ? 'routes to a backend service of the environment' : undefined)),
  );
  const mapPaths = paths(maps.items);
  ids.learnGateway(maps.items);
  const proxies = pick(
    [...httpProxies, ...httpsProxies],
    linkedOrNamed((p) => (mapPaths.has(resourcePath(p.urlMap as string | undefined)) ? 'uses a URL map of the environment' : undefined)),
  );

  const instancePaths = paths(envInstances);
  const legacyLbNames = new Set(envFirewalls.map((f) => /^k8s-fw-(a[0-9a-f]{20,})$/.exec(f.name)?.[1]).filter((n): n is string => !!n));
  const pools = pick(
    targetPools,
    linkedOrNamed((pool) => {
      if (((pool.instances as string[] | undefined) ?? []).some((vm) => instancePaths.has(resourcePath(vm)))) return `targets VMs in network ${query.networkName}`;
      return legacyLbNames.has(pool.name) ? `legacy load balancer with firewall rule k8s-fw-${pool.name} in network ${query.networkName}` : undefined;
    }),
  );
  const targetPaths = paths([...proxies.items, ...pools.items]);
  const rules = pick(
    forwardingRules,
    linkedOrNamed((r) => {
      if (targetPaths.has(resourcePath(r.target as string | undefined))) return 'sends to a target proxy or target pool of the environment';
      if (servicePaths.has(resourcePath(r.backendService as string | undefined))) return 'sends to a backend service of the environment';
      if (inNetwork(r)) return byNetwork();
      return legacyLbNames.has(r.name) ? `legacy load balancer with firewall rule k8s-fw-${r.name} in network ${query.networkName}` : undefined;
    }),
  );

  // Reserved addresses: used by a forwarding rule of the environment, inside its network, or labelled with it.
  const rulePaths = paths(rules.items);
  const envSubnetPaths = paths(envSubnets);
  const reserved = pick(
    addresses,
    linkedOrNamed((a) => {
      if (((a.users as string[] | undefined) ?? []).some((u) => rulePaths.has(resourcePath(u)))) return 'used by a forwarding rule of the environment';
      if (inNetwork(a) || envSubnetPaths.has(resourcePath(a.subnetwork as string | undefined))) return byNetwork();
      return (a.labels as Record<string, string> | undefined)?.['hoplab-env'] === query.env ? `label hoplab-env=${query.env}` : undefined;
    }),
  );
  // SSL certificates: used by an HTTPS proxy of the environment.
  const certPaths = new Set(proxies.items.flatMap((p) => ((p.sslCertificates as string[] | undefined) ?? []).map(resourcePath)));
  const certs = pick(
    sslCertificates,
    linkedOrNamed((c) => (certPaths.has(resourcePath(c.selfLink)) ? 'used by a target proxy of the environment' : undefined)),
  );

  const checkedBy = new Set([...services.items, ...pools.items].flatMap((s) => ((s.healthChecks as string[] | undefined) ?? []).map(resourcePath)));
  const checks = pick(
    [...healthChecks, ...httpHealthChecks],
    linkedOrNamed((hc) => {
      if (checkedBy.has(resourcePath(hc.selfLink))) return 'used by a backend service or target pool of the environment';
      return legacyLbNames.has(hc.name) ? `legacy load balancer with firewall rule k8s-fw-${hc.name} in network ${query.networkName}` : undefined;
    }),
  );

  // 3. The cluster.
  const missingZones = (clusterList.missingZones as string[] | undefined) ?? [];
  if (missingZones.length > 0) throw new Error(`GKE could not list clusters in ${missingZones.join(', ')} of project ${query.project}; run the check again`);
  const clusters = ((clusterList.clusters as Item[] | undefined) ?? []).filter((c) => c.name === query.clusterName);
  for (const cluster of clusters) {
    const id = `projects/${query.project}/locations/${String(cluster.location ?? cluster.zone ?? '-')}/clusters/${cluster.name}`;
    found.set(id, { cloud: 'gcp', kind: 'container:cluster', id, matchedBy: 'cluster name' });
  }

  add('compute:instance', envInstances, byNetwork);
  add('compute:forwarding-rule', rules.items, rules.why);
  add('compute:address', reserved.items, reserved.why);
  add('compute:target-proxy', proxies.items, proxies.why);
  add('compute:ssl-certificate', certs.items, certs.why);
  for (const piece of gateway.pieces) found.set(piece.id, piece);
  add('compute:url-map', maps.items, maps.why);
  add('compute:backend-service', services.items, services.why);
  // The Cloud Armor policy: the cluster stack's, named for the environment (its backend services are deleted first).
  const policyName = query.securityPolicyName ?? `${query.clusterName}-sources`;
  add(
    'compute:security-policy',
    securityPolicies.filter((sp) => sp.name === policyName),
    () => 'security policy name',
  );
  add('compute:target-pool', pools.items, pools.why);
  add('compute:health-check', checks.items, checks.why);
  add('compute:network-endpoint-group', envNegs, byNetwork);
  add('compute:instance-group', groups.items, groups.why);
  add('compute:firewall', envFirewalls, byNetwork);
  add('compute:router', envRouters, byNetwork);
  add('compute:subnetwork', envSubnets, byNetwork);
  add('compute:network', envNetworks, () => 'network name');

  // 4. The nodes' service account and its project IAM binding (exact email; a deleted account's
  // binding stays as `deleted:serviceAccount:<email>?uid=...` until the policy is edited).
  const email = `${query.nodeServiceAccountId ?? `${query.clusterName}-nodes`}@${query.project}.iam.gserviceaccount.com`;
  for (const account of serviceAccounts.filter((a) => a.email === email)) {
    const id = `projects/${query.project}/serviceAccounts/${email}`;
    found.set(id, { cloud: 'gcp', kind: 'iam:service-account', id, matchedBy: `email ${String(account.email)}` });
  }
  for (const binding of (iamPolicy.bindings as { role?: string; members?: string[] }[] | undefined) ?? []) {
    for (const member of binding.members ?? []) {
      if (member === `serviceAccount:${email}` || member.startsWith(`deleted:serviceAccount:${email}?`)) {
        const id = `projects/${query.project} ${binding.role} ${member}`;
        found.set(id, { cloud: 'gcp', kind: 'iam:project-binding', id, matchedBy: `member ${email}` });
      }
    }
  }

  return [...found.values()]
    .filter((leftover) => query.scope !== 'controller' || controllerMade(leftover))
    .sort((a, b) => KIND_ORDER.indexOf(a.kind as Kind) - KIND_ORDER.indexOf(b.kind as Kind) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * What GKE's Gateway controller (the `gateway` exposure: names `gkegw1-<id>-...`)
 * leaves that the links above do not reach: its firewall rule in the network,
 * `gkegw1-[<id>-]l7-<network>-<region|global>`, which belongs to the network
 * rather than to a Gateway, so it outlives every Gateway and blocks deleting
 * the network. (Its forwarding rules, proxies, URL maps, backend services and
 * NEGs are found by the links, like the Ingress ones.) Its cluster id, when the
 * name has one, finds the Gateway pieces no link reaches any more, such as an
 * orphaned `gkegw1-<id>-...` health check.
 */
function gatewayApiPieces(firewalls: readonly Item[], project: string, networkName: string): { pieces: Leftover[]; clusterIds: string[] } {
  const pieces: Leftover[] = [];
  const clusterIds: string[] = [];
  for (const rule of firewalls) {
    const made = gkeControllerFirewall(rule, project, networkName);
    if (made?.owner !== 'gateway') continue;
    if (made.clusterId) clusterIds.push(made.clusterId);
    pieces.push({ cloud: 'gcp', kind: 'compute:firewall', id: resourcePath(rule.selfLink) || rule.name, matchedBy: made.why });
  }
  return { pieces, clusterIds };
}

/** Every backend service a URL map can send to: default service, path matchers, path rules, route rules, weighted backends. */
function urlMapServices(map: Item): string[] {
  interface RouteAction {
    weightedBackendServices?: { backendService?: string }[];
  }
  interface Rule {
    service?: string;
    routeAction?: RouteAction;
  }
  interface Matcher {
    defaultService?: string;
    defaultRouteAction?: RouteAction;
    pathRules?: Rule[];
    routeRules?: Rule[];
  }
  const weighted = (action: RouteAction | undefined) => (action?.weightedBackendServices ?? []).map((w) => w.backendService);
  const fromMatcher = (m: Matcher) => [
    m.defaultService,
    ...weighted(m.defaultRouteAction),
    ...[...(m.pathRules ?? []), ...(m.routeRules ?? [])].flatMap((r) => [r.service, ...weighted(r.routeAction)]),
  ];
  const top = map as Item & Matcher & { pathMatchers?: Matcher[] };
  return [...fromMatcher(top), ...(top.pathMatchers ?? []).flatMap(fromMatcher)].filter((s): s is string => typeof s === 'string');
}
