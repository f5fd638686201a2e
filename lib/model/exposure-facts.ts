import { admitsAnyAddress } from './cidr';
import { ExposureMode } from './modes';
import { ClientIpVia, clientIpPreserved, Cloud, ExposureOutput } from './contract';

/** What an exposure is, apart from where it lives: the static part of an `exposure_<mode>` output (`backends` comes from {@link exposureBackends}). */
export type ExposureFacts = Omit<ExposureOutput, 'mode' | 'cloud' | 'url' | 'backends'>;

/** Facts without `client_ip_preserved`, which {@link fact} derives from `client_ip_via`. */
type StatedFacts = Omit<ExposureFacts, 'client_ip_preserved'>;

/** Adds `client_ip_preserved` exactly as the contract defines it: `client_ip_via !== 'none'`. */
function fact(stated: StatedFacts): ExposureFacts {
  return { ...stated, client_ip_preserved: clientIpPreserved(stated.client_ip_via) };
}

/** An ALB that targets Pod IPs (AWS native and gateway). */
const ALB_POD_TARGETS = fact({
  lb_kind: 'alb',
  target_type: 'ip',
  expected_hops: 1,
  source_nat: false,
  client_ip_via: 'x-forwarded-for',
  client_ip_seen_as: 'X-Forwarded-For; the TCP peer is the ALB',
  health_check: 'each Pod IP on its port (HTTP /), with Pod readiness gates',
  external_traffic_policy: 'Cluster',
});

/** A Google Application Load Balancer whose backends are NEGs of Pods (GCP native and gateway), health-checked as `health_check` says. */
const gclbNegs = (health_check: string) =>
  fact({
    lb_kind: 'gclb-application',
    target_type: 'neg',
    expected_hops: 1,
    source_nat: false,
    client_ip_via: 'x-forwarded-for',
    client_ip_seen_as: 'X-Forwarded-For; the TCP peer is a Google Front End proxy',
    health_check,
    external_traffic_policy: 'Cluster',
  });

const SNAT_L7 = (via: string) => `a node address (SNAT by kube-proxy) as TCP peer; only the L7 X-Forwarded-For header still names the client (${via})`;
const SNAT_L4 = 'a node address (SNAT by kube-proxy) as TCP source, and no header: the client address is lost';
/** The node health port GKE's L4 health check asks for `externalTrafficPolicy: Cluster`, in the facts' words (answered by kube-proxy). */
export const NODE_HEALTH_PORT = 'kube-proxy health port 10256 (HTTP /healthz)';

/** How the words name GKE Dataplane V2 (gcp.datapath `dataplane-v2`). */
export const GKE_DATAPLANE_V2 = 'GKE Dataplane V2 (Cilium eBPF)';

/**
 * The facts' words for a cluster whose dataplane is Cilium instead of
 * kube-proxy (EKS with Cilium's kube-proxy replacement, GKE Dataplane V2,
 * which is Google-managed Cilium): Cilium's eBPF NodePort SNATs a request only
 * when the Pod it picks is on another node (Cilium's kubeproxy-free docs, "by
 * default ... SNAT mode ... at a remote node"), and with no kube-proxy, port
 * 10256 is answered by Cilium's kube-proxy-replacement health server
 * (Cilium's kubeproxy-free guide, `kubeProxyReplacementHealthzBindAddr`, e.g.
 * `0.0.0.0:10256`). For GKE Dataplane V2 this is inferred from its being
 * Cilium: no Google document states it.
 * `who` names it, e.g. `GKE Dataplane V2 (Cilium eBPF)`. explain words its
 * derived facts the same way (lib/lab/anatomy).
 */
export const ciliumWords = {
  clientIpSeenAs: (words: string, who: string) =>
    words
      .replace('SNAT by kube-proxy', `SNAT by ${who}, when the Pod is on another node`)
      .replace(': the client address is lost', ': the client address is lost then, and kept when the Pod is on the receiving node'),
  healthCheck: (words: string, who: string) => words.replace(NODE_HEALTH_PORT, `health port 10256 (HTTP /healthz), answered by ${who} in kube-proxy's place,`),
};

/**
 * Exposure modes a cloud does not offer, and why: explain, compare and the
 * docs/exposures.md say so, and the `-lb` stack exports nothing for them.
 */
export const EXPOSURE_UNAVAILABLE: Readonly<Record<Cloud, Readonly<Partial<Record<ExposureMode, string>>>>> = {
  aws: {},
  gcp: {
    // Their backends are instance groups or GCE_VM_IP NEGs of the node VMs: there is no L4 container-native load balancer to show.
    'native-l4': 'GKE passthrough Network Load Balancers only target nodes, never Pod IPs',
  },
};

/**
 * The facts of docs/design.md per cloud and exposure mode; a mode the cloud does not
 * offer (see {@link EXPOSURE_UNAVAILABLE}) has none. The `-lb` stacks build each
 * exposure from these facts and export them next to its URL; `explain` derives
 * the same facts from the synthesized resources, and a test holds the two together.
 *
 * `source_nat`: a node SNATs on the way to the Pod. `client_ip_via`: where the
 * Pod finds the client. Behind an L7 load balancer the TCP peer is always the
 * proxy (or, with SNAT, a node), but X-Forwarded-For still names the client;
 * only an L4 load balancer in front of NodePorts with `externalTrafficPolicy:
 * Cluster` (`nodeport-l4`) loses it.
 */
export const EXPOSURE_FACTS: Readonly<Record<Cloud, Readonly<Partial<Record<ExposureMode, ExposureFacts>>>>> = {
  aws: {
    native: ALB_POD_TARGETS,
    // The Gateway API's ALB: the same load balancer as the Ingress's, through another API.
    gateway: ALB_POD_TARGETS,
    nodeport: fact({
      lb_kind: 'alb',
      target_type: 'instance',
      expected_hops: 2,
      source_nat: true,
      client_ip_via: 'x-forwarded-for',
      client_ip_seen_as: SNAT_L7('the ALB adds it'),
      health_check: "every node's NodePort (HTTP /): passes on nodes without a Pod too",
      external_traffic_policy: 'Cluster',
    }),
    'nodeport-l4': fact({
      lb_kind: 'nlb',
      target_type: 'instance',
      expected_hops: 2,
      source_nat: true,
      client_ip_via: 'none',
      client_ip_seen_as: SNAT_L4,
      health_check: "every node's NodePort (TCP): passes on nodes without a Pod too",
      external_traffic_policy: 'Cluster',
    }),
    'nodeport-local': fact({
      lb_kind: 'nlb',
      target_type: 'instance',
      expected_hops: 1,
      source_nat: false,
      client_ip_via: 'tcp-source',
      client_ip_seen_as: 'TCP source address (no proxy, no SNAT)',
      health_check: "each node's healthCheckNodePort (HTTP /healthz): only nodes with a ready Pod pass",
      external_traffic_policy: 'Local',
    }),
    'native-l4': fact({
      lb_kind: 'nlb',
      target_type: 'ip',
      expected_hops: 1,
      source_nat: false,
      client_ip_via: 'tcp-source',
      client_ip_seen_as: 'TCP source address (NLB client IP preservation on, no SNAT)',
      health_check: 'each Pod IP on its port (TCP), with Pod readiness gates',
      external_traffic_policy: 'Cluster',
    }),
  },
  gcp: {
    native: gclbNegs("each Pod endpoint in the NEGs (HTTP /: Pods start after the Ingress, so GKE uses its default path, not the readiness probe's)"),
    // The Gateway API's load balancer: the same as the Ingress's, through another API, health-checked by the Gateway controller's default.
    gateway: gclbNegs("each Pod endpoint in the NEGs (HTTP /, the Gateway controller's default without a HealthCheckPolicy)"),
    nodeport: fact({
      lb_kind: 'gclb-application',
      target_type: 'instance-group',
      expected_hops: 2,
      source_nat: true,
      client_ip_via: 'x-forwarded-for',
      client_ip_seen_as: SNAT_L7('the Google Front End adds it'),
      health_check: "every node's NodePort in the instance groups (HTTP /)",
      external_traffic_policy: 'Cluster',
    }),
    'nodeport-l4': fact({
      lb_kind: 'gcp-passthrough-nlb',
      target_type: 'instance',
      expected_hops: 2,
      source_nat: true,
      client_ip_via: 'none',
      client_ip_seen_as: SNAT_L4,
      health_check: `${NODE_HEALTH_PORT} on every node: passes on nodes without a Pod too`,
      external_traffic_policy: 'Cluster',
    }),
    'nodeport-local': fact({
      lb_kind: 'gcp-passthrough-nlb',
      // The node VMs: behind a regional backend service as instance groups, or GCE_VM_IP NEGs on newer GKE.
      target_type: 'instance',
      expected_hops: 1,
      source_nat: false,
      client_ip_via: 'tcp-source',
      client_ip_seen_as: 'TCP source address (passthrough, no SNAT)',
      health_check: "each node's healthCheckNodePort (HTTP /healthz): only nodes with a ready Pod pass",
      external_traffic_policy: 'Local',
    }),
  },
};

/**
 * The kinds of exposure construct, one class each (lib/constructs/aws, lib/constructs/gcp):
 * the ALB Ingress, the ALB Gateway, the NLB Service; the GKE Ingress, the GKE Gateway,
 * the GKE passthrough load balancer Service.
 */
export const EXPOSURE_CONSTRUCTS = ['alb-ingress', 'alb-gateway', 'nlb-service', 'gce-ingress', 'gke-gateway', 'gke-passthrough-service'] as const;
export type ExposureConstruct = (typeof EXPOSURE_CONSTRUCTS)[number];

/**
 * Which construct builds each exposure a cloud offers (the same (cloud, mode)
 * pairs as {@link EXPOSURE_FACTS}; a test holds them together). The `-lb`
 * stacks build every exposure through this table (see composeExposures), so a
 * new mode of an existing kind is one entry here and one in EXPOSURE_FACTS.
 */
export const EXPOSURE_BUILT_BY: Readonly<Record<Cloud, Readonly<Partial<Record<ExposureMode, ExposureConstruct>>>>> = {
  aws: {
    native: 'alb-ingress',
    gateway: 'alb-gateway',
    nodeport: 'alb-ingress',
    'nodeport-l4': 'nlb-service',
    'nodeport-local': 'nlb-service',
    'native-l4': 'nlb-service',
  },
  gcp: {
    native: 'gce-ingress',
    gateway: 'gke-gateway',
    nodeport: 'gce-ingress',
    'nodeport-l4': 'gke-passthrough-service',
    'nodeport-local': 'gke-passthrough-service',
  },
};

/**
 * What keeps clients outside `app.allowedSourceCidrs` away from each kind of
 * load balancer. EKS: the security group the AWS Load Balancer Controller
 * (v3.5.0) makes for the ALB or NLB admits only the listed blocks. GKE L4: GKE
 * makes the Service's ingress firewall rule with `loadBalancerSourceRanges` as
 * its source ranges. GKE L7: an external Application Load Balancer has no
 * firewall on the client side; a Cloud Armor security policy
 * (`<env>-gke-sources`, in `<env>-gcp-cluster`) admits only the listed blocks
 * and answers others 403, attached by a BackendConfig (Ingress) or a
 * GCPBackendPolicy (Gateway).
 */
export const SOURCE_FILTER: Readonly<Record<ExposureConstruct, string>> = {
  'alb-ingress': 'the ALB security group (alb.ingress.kubernetes.io/inbound-cidrs)',
  'alb-gateway': 'the ALB security group (LoadBalancerConfiguration spec.sourceRanges)',
  'nlb-service': 'the NLB security group (spec.loadBalancerSourceRanges)',
  'gke-passthrough-service': "the Service's GKE firewall rule (spec.loadBalancerSourceRanges)",
  'gce-ingress': 'a Cloud Armor security policy, deny(403) to others (BackendConfig spec.securityPolicy)',
  'gke-gateway': 'a Cloud Armor security policy, deny(403) to others (GCPBackendPolicy spec.default.securityPolicy)',
};

/**
 * What a client outside a narrowed `app.allowedSourceCidrs` sees of the lab's
 * load balancers (see {@link SOURCE_FILTER}): said by preflight about the host's
 * own address, and by verify when it leaves such exposures out.
 */
export const OUTSIDE_SOURCES_SEES =
  "the lab's load balancers do not answer it (AWS's and GKE's L4 ones drop its packets; GKE's Ingress and Gateway answer 403 from Cloud Armor), so verify and compare --probe from here measure nothing";

/** The fix for a host outside a narrowed `app.allowedSourceCidrs`. */
export const outsideSourcesFix = (address: string) => `run verify and compare --probe from an address inside the list, or add ${address}/32 to app.allowedSourceCidrs and deploy again`;

/** Cloud Armor's basic match (`versioned_expr = "SRC_IPS_V1"`) takes at most this many `src_ip_ranges` in one rule. */
export const CLOUD_ARMOR_MAX_RANGES_PER_RULE = 10;

/** The rules of the source policy for `allowedSourceCidrs`: one allow rule per {@link CLOUD_ARMOR_MAX_RANGES_PER_RULE} blocks, and the default rule. */
export const cloudArmorRuleCount = (allowedSourceCidrs: readonly string[]) => Math.ceil(allowedSourceCidrs.length / CLOUD_ARMOR_MAX_RANGES_PER_RULE) + 1;

/** The kinds of exposure whose clients a Cloud Armor security policy filters (GKE's external Application Load Balancers). */
export const CLOUD_ARMOR_FILTERED: readonly ExposureConstruct[] = ['gce-ingress', 'gke-gateway'];

/**
 * True when `<env>-gcp-cluster` needs the Cloud Armor security policy: the
 * client list is narrower than any address and a GKE exposure of `modes` is an
 * Application Load Balancer. Otherwise nothing is made (the default synthesizes as before).
 */
export function gkeNeedsSecurityPolicy(modes: readonly ExposureMode[], allowedSourceCidrs: readonly string[]): boolean {
  if (admitsAnyAddress(allowedSourceCidrs)) return false;
  return modes.some((mode) => {
    const kind = EXPOSURE_BUILT_BY.gcp[mode];
    return kind !== undefined && CLOUD_ARMOR_FILTERED.includes(kind);
  });
}

/** The facts of `mode` on `cloud`, or undefined where the cloud does not offer it. */
export function exposureFacts(cloud: Cloud, mode: ExposureMode): ExposureFacts | undefined {
  return EXPOSURE_FACTS[cloud][mode];
}

/** The modes of `modes` that `cloud` offers, in the given order. */
export function offeredModes(cloud: Cloud, modes: readonly ExposureMode[]): ExposureMode[] {
  return modes.filter((mode) => EXPOSURE_FACTS[cloud][mode] !== undefined);
}

/**
 * The `backends` output of an exposure, from its cloud and target type. GKE
 * passthrough load balancers (`target_type` `instance`) depend on the GKE
 * version: pass the words of `gkeL4Backends(version).backends`.
 */
export function exposureBackends(cloud: Cloud, facts: ExposureFacts, gkePassthroughBackends?: string): string {
  switch (`${cloud}/${facts.target_type}`) {
    case 'aws/ip':
      return 'the Pod IPs, registered in an ip target group';
    case 'aws/instance':
      return "every node's NodePort, registered in an instance target group";
    case 'gcp/neg':
      return 'the Pod IPs, as endpoints of zonal GCE_VM_IP_PORT NEGs';
    case 'gcp/instance-group':
      return "every node's NodePort, through zonal instance groups";
    case 'gcp/instance':
      return gkePassthroughBackends ?? 'the nodes (instance groups or GCE_VM_IP NEGs, by GKE version)';
    default:
      throw new Error(`exposureBackends: no words for target type "${facts.target_type}" on ${cloud}`);
  }
}

/** Type guard for callers that hold a raw string. */
export function isClientIpVia(value: unknown): value is ClientIpVia {
  return value === 'tcp-source' || value === 'x-forwarded-for' || value === 'none';
}
