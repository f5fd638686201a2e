/**
 * Which resources of a Google Cloud project are an environment's, from what
 * the project holds (gcp-inventory.ts fetches it): a pure function of plain
 * data, so every rule is tested without a server.
 *
 * The names GKE's controllers give load-balancer pieces carry no environment,
 * so it anchors on the environment's network and walks the references:
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
 * Leftovers come in an order they can be deleted in.
 */
import { GoogleItem as Item, resourcePath } from '../../kit/google/google-api-reader';
import { gkeControllerFirewall } from './gke-firewall-rules';
import { controllerNamed, GkeIds } from './gke-names';
import { Leftover } from './leftover';

/** One binding of a project's IAM policy. */
export interface IamBinding {
  readonly role?: string;
  readonly members?: readonly string[];
}

/** The lists of a project the leftover check reads, each kind's global and regional resources in one (GKE's clusters of every location). */
export const INVENTORY_LISTS = [
  'networks',
  'firewalls',
  'httpHealthChecks',
  'subnetworks',
  'routers',
  'negs',
  'instanceGroups',
  'instances',
  'targetPools',
  'backendServices',
  'urlMaps',
  'httpProxies',
  'httpsProxies',
  'forwardingRules',
  'healthChecks',
  'clusters',
  'addresses',
  'sslCertificates',
  'securityPolicies',
  'serviceAccounts',
] as const;

/** What a project holds, as the leftover check reads it: the {@link INVENTORY_LISTS}, and the project's IAM bindings. */
export type GcpInventory = { readonly [list in (typeof INVENTORY_LISTS)[number]]: readonly Item[] } & { readonly iamBindings: readonly IamBinding[] };

/** The environment whose leftovers are looked for. */
export interface GcpEnvironment {
  readonly env: string;
  readonly project: string;
  /** The environment's VPC network name (`<env>-gke`). */
  readonly networkName: string;
  /** The GKE cluster name (`<env>-gke`). */
  readonly clusterName: string;
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

/** With the cluster kept: only the controllers' pieces (their firewall rules and instance groups by name, see gke-names.ts). */
function controllerMade(leftover: Leftover): boolean {
  if (CLUSTER_STACK_KINDS.has(leftover.kind)) return false;
  const name = leftover.id.split('/').pop() ?? '';
  if (leftover.kind === 'compute:firewall' || leftover.kind === 'compute:instance-group') return controllerNamed(leftover.kind, name);
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

/** Items picked as the environment's, with why each is. */
interface Picked {
  readonly items: readonly Item[];
  readonly why: (item: Item) => string;
}

const paths = (items: readonly Item[]) => new Set(items.map((i) => resourcePath(i.selfLink)));

/** What lives in the environment's network, and the GKE cluster ids its pieces' names tell. */
type NetworkPieces = { readonly [kind in 'networks' | 'subnets' | 'routers' | 'firewalls' | 'negs' | 'instances']: readonly Item[] } & {
  readonly inNetwork: (item: Item) => boolean;
  readonly byNetwork: () => string;
  readonly ids: GkeIds;
  /** The Gateway controller's firewall rules of the network. */
  readonly gateway: readonly Leftover[];
};

/** 1. What lives in the network. */
function networkPieces(inventory: GcpInventory, query: GcpEnvironment): NetworkPieces {
  const networkPath = `projects/${query.project}/global/networks/${query.networkName}`;
  const inNetwork = (item: Item) => resourcePath(item.network) === networkPath;
  const firewalls = inventory.firewalls.filter(inNetwork);
  const negs = inventory.negs.filter(inNetwork);
  const ids = new GkeIds();
  ids.learn([...firewalls, ...negs, ...inventory.instanceGroups.filter(inNetwork)]);
  // The Gateway controller's firewall rule of the network names its cluster id: what the Gateway left is found by it even when no link is left.
  const gateway = gatewayApiPieces(firewalls, query.project, query.networkName);
  for (const hash of gateway.clusterIds) ids.learnGatewayHash(hash);
  return {
    inNetwork,
    byNetwork: () => `in network ${query.networkName}`,
    networks: inventory.networks.filter((n) => resourcePath(n.selfLink) === networkPath || n.name === query.networkName),
    subnets: inventory.subnetworks.filter(inNetwork),
    routers: inventory.routers.filter(inNetwork),
    firewalls,
    negs,
    instances: inventory.instances.filter((vm) => ((vm.networkInterfaces as { network?: string }[] | undefined) ?? []).some((nic) => resourcePath(nic.network) === networkPath)),
    ids,
    gateway: gateway.pieces,
  };
}

/** 2. The load balancers' pieces: linked to the network's groups, or named with one of its cluster ids. */
function loadBalancerPieces(inventory: GcpInventory, query: GcpEnvironment, network: NetworkPieces) {
  const { inNetwork, byNetwork, ids } = network;
  const byId = (item: Item) => {
    const id = ids.match(item.name);
    return id ? `GKE name with cluster id ${id} (from network ${query.networkName})` : undefined;
  };
  const pick = (items: readonly Item[], linked: (item: Item) => string | undefined): Picked => {
    const why = (item: Item) => linked(item) ?? byId(item);
    return { items: items.filter((item) => why(item) !== undefined), why: (item: Item) => why(item) as string };
  };
  const legacy = (name: string) => `legacy load balancer with firewall rule k8s-fw-${name} in network ${query.networkName}`;

  const groups = pick(inventory.instanceGroups, (g) => (inNetwork(g) ? byNetwork() : undefined));
  const groupPaths = paths([...network.negs, ...groups.items]);

  // Backend services over those groups, and the frontends that use them.
  const services = pick(inventory.backendServices, (s) => {
    if (((s.backends as { group?: string }[] | undefined) ?? []).some((b) => groupPaths.has(resourcePath(b.group)))) return 'backends are NEGs or instance groups of the environment';
    return inNetwork(s) ? byNetwork() : undefined;
  });
  const servicePaths = paths(services.items);
  // Gateway pieces linked so far tell the Gateway controller's hash, for the ones whose links are gone.
  ids.learnGateway(services.items);
  const maps = pick(inventory.urlMaps, (m) => (urlMapServices(m).some((s) => servicePaths.has(resourcePath(s))) ? 'routes to a backend service of the environment' : undefined));
  const mapPaths = paths(maps.items);
  ids.learnGateway(maps.items);
  const proxies = pick([...inventory.httpProxies, ...inventory.httpsProxies], (p) => (mapPaths.has(resourcePath(p.urlMap as string | undefined)) ? 'uses a URL map of the environment' : undefined));

  const instancePaths = paths(network.instances);
  const legacyLbNames = new Set(network.firewalls.map((f) => /^k8s-fw-(a[0-9a-f]{20,})$/.exec(f.name)?.[1]).filter((n): n is string => !!n));
  const pools = pick(inventory.targetPools, (pool) => {
    if (((pool.instances as string[] | undefined) ?? []).some((vm) => instancePaths.has(resourcePath(vm)))) return `targets VMs in network ${query.networkName}`;
    return legacyLbNames.has(pool.name) ? legacy(pool.name) : undefined;
  });
  const targetPaths = paths([...proxies.items, ...pools.items]);
  const rules = pick(inventory.forwardingRules, (r) => {
    if (targetPaths.has(resourcePath(r.target as string | undefined))) return 'sends to a target proxy or target pool of the environment';
    if (servicePaths.has(resourcePath(r.backendService as string | undefined))) return 'sends to a backend service of the environment';
    if (inNetwork(r)) return byNetwork();
    return legacyLbNames.has(r.name) ? legacy(r.name) : undefined;
  });

  // Reserved addresses: used by a forwarding rule of the environment, inside its network, or labelled with it.
  const rulePaths = paths(rules.items);
  const subnetPaths = paths(network.subnets);
  const reserved = pick(inventory.addresses, (a) => {
    if (((a.users as string[] | undefined) ?? []).some((u) => rulePaths.has(resourcePath(u)))) return 'used by a forwarding rule of the environment';
    if (inNetwork(a) || subnetPaths.has(resourcePath(a.subnetwork as string | undefined))) return byNetwork();
    return (a.labels as Record<string, string> | undefined)?.['hoplab-env'] === query.env ? `label hoplab-env=${query.env}` : undefined;
  });
  // SSL certificates: used by an HTTPS proxy of the environment.
  const certPaths = new Set(proxies.items.flatMap((p) => ((p.sslCertificates as string[] | undefined) ?? []).map(resourcePath)));
  const certs = pick(inventory.sslCertificates, (c) => (certPaths.has(resourcePath(c.selfLink)) ? 'used by a target proxy of the environment' : undefined));

  const checkedBy = new Set([...services.items, ...pools.items].flatMap((s) => ((s.healthChecks as string[] | undefined) ?? []).map(resourcePath)));
  const checks = pick([...inventory.healthChecks, ...inventory.httpHealthChecks], (hc) => {
    if (checkedBy.has(resourcePath(hc.selfLink))) return 'used by a backend service or target pool of the environment';
    return legacyLbNames.has(hc.name) ? legacy(hc.name) : undefined;
  });
  return { groups, services, maps, proxies, pools, rules, reserved, certs, checks };
}

/**
 * 4. The nodes' service account and its project IAM binding (exact email; a deleted account's
 * binding stays as `deleted:serviceAccount:<email>?uid=...` until the policy is edited).
 */
function nodeIdentity(inventory: GcpInventory, query: GcpEnvironment): Leftover[] {
  const email = `${query.nodeServiceAccountId ?? `${query.clusterName}-nodes`}@${query.project}.iam.gserviceaccount.com`;
  const accounts = inventory.serviceAccounts
    .filter((a) => a.email === email)
    .map((account): Leftover => ({ cloud: 'gcp', kind: 'iam:service-account', id: `projects/${query.project}/serviceAccounts/${email}`, matchedBy: `email ${String(account.email)}` }));
  const bindings = inventory.iamBindings.flatMap((binding) =>
    (binding.members ?? [])
      .filter((member) => member === `serviceAccount:${email}` || member.startsWith(`deleted:serviceAccount:${email}?`))
      .map((member): Leftover => ({ cloud: 'gcp', kind: 'iam:project-binding', id: `projects/${query.project} ${binding.role} ${member}`, matchedBy: `member ${email}` })),
  );
  return [...accounts, ...bindings];
}

/** The environment's leftovers among what the project holds, in an order they can be deleted in. */
export function classifyGcpLeftovers(inventory: GcpInventory, query: GcpEnvironment): Leftover[] {
  const network = networkPieces(inventory, query);
  const lb = loadBalancerPieces(inventory, query, network);
  const found = new Map<string, Leftover>();
  const set = (leftover: Leftover) => found.set(leftover.id, leftover);
  // The first reason an item is found for is the one it is listed with.
  const add = (kind: Kind, { items, why }: Picked) => {
    for (const item of items) {
      const id = resourcePath(item.selfLink) || item.name;
      if (!found.has(id)) set({ cloud: 'gcp', kind, id, matchedBy: why(item) });
    }
  };
  const inNetwork = (items: readonly Item[]): Picked => ({ items, why: network.byNetwork });

  // 3. The cluster, by name.
  for (const cluster of inventory.clusters.filter((c) => c.name === query.clusterName)) {
    set({ cloud: 'gcp', kind: 'container:cluster', id: `projects/${query.project}/locations/${String(cluster.location ?? cluster.zone ?? '-')}/clusters/${cluster.name}`, matchedBy: 'cluster name' });
  }
  add('compute:instance', inNetwork(network.instances));
  add('compute:forwarding-rule', lb.rules);
  add('compute:address', lb.reserved);
  add('compute:target-proxy', lb.proxies);
  add('compute:ssl-certificate', lb.certs);
  network.gateway.forEach(set);
  add('compute:url-map', lb.maps);
  add('compute:backend-service', lb.services);
  // The Cloud Armor policy: the cluster stack's, named for the environment (its backend services are deleted first).
  const policyName = query.securityPolicyName ?? `${query.clusterName}-sources`;
  add('compute:security-policy', { items: inventory.securityPolicies.filter((sp) => sp.name === policyName), why: () => 'security policy name' });
  add('compute:target-pool', lb.pools);
  add('compute:health-check', lb.checks);
  add('compute:network-endpoint-group', inNetwork(network.negs));
  add('compute:instance-group', lb.groups);
  add('compute:firewall', inNetwork(network.firewalls));
  add('compute:router', inNetwork(network.routers));
  add('compute:subnetwork', inNetwork(network.subnets));
  add('compute:network', { items: network.networks, why: () => 'network name' });
  nodeIdentity(inventory, query).forEach(set);

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
export function urlMapServices(map: Item): string[] {
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
