/**
 * The firewall rules GKE's controllers make once per cluster and network, by
 * exact name: they belong to the network, not to the Gateway, Ingress or
 * Service that made them needed, so they outlive those objects, and a network
 * with a rule left on it cannot be deleted. (Rules made for one Service or one
 * load balancer go with it: the object's finalizer holds its deletion until
 * they are gone, and Terraform waits for that.)
 */
import { GoogleItem, resourcePath } from '../../kit/google/google-api-reader';

/** Which controller made a per-cluster rule. */
export type GkeFirewallOwner = 'gateway' | 'ingress' | 'l4-shared-health-check' | 'legacy-node-health-check';

export interface GkeControllerFirewall {
  readonly owner: GkeFirewallOwner;
  /** The cluster id in the name (the Gateway controller's 4 characters, the Ingress controller's uid, the L4 controller's 8), if it has one. */
  readonly clusterId?: string;
  /** Why the rule is there and why it stays, in words. */
  readonly why: string;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The Gateway controller's rule for a network: documented as
 * `gkegw1-l7-<network>-<region|global>` (GKE's "Automatically created firewall
 * rules", as gcloud's `network-firewall-policies migrate` quotes it), and seen
 * on live clusters with a 4-character cluster id after `gkegw1-`
 * (`gkegw1-nv9e-l7-default-global`). The network name is matched exactly, so
 * `lab-gke` never matches `lab-gke2`'s rule.
 */
export function gatewayFirewallPattern(networkName: string): RegExp {
  return new RegExp(`^gkegw1-(?:([a-z0-9]{4})-)?l7-${escape(networkName)}-(?:global|[a-z]+-[a-z]+[0-9]+)$`);
}

/** The other controllers' per-cluster rules (kubernetes/ingress-gce `pkg/utils/namer`, k8s.io/cloud-provider-gcp). */
const PER_CLUSTER: readonly { readonly owner: GkeFirewallOwner; readonly pattern: RegExp; readonly why: string }[] = [
  {
    owner: 'ingress',
    // `k8s-fw-l7--<cluster uid>`: the Ingress controller's rule for Google's proxies and health checkers, shared by every Ingress of the cluster.
    pattern: /^k8s-fw-l7--([0-9a-f]{16})$/,
    why: "the GKE Ingress controller's rule, shared by every Ingress of the cluster",
  },
  {
    owner: 'l4-shared-health-check',
    // `k8s2-<id8>-l4-shared-hc-fw`: the L4 controller's rule for the health check every `externalTrafficPolicy: Cluster` Service shares.
    pattern: /^k8s2-([a-z0-9]{8})-l4-shared-hc-fw$/,
    why: "the GKE L4 controller's rule for the health check all externalTrafficPolicy: Cluster Services share",
  },
  {
    owner: 'legacy-node-health-check',
    // `k8s-<cluster uid>-node-http-hc`: the legacy (target pool) Service controller's node health check rule, known to stay behind
    // (hashicorp/terraform-provider-google#5948).
    pattern: /^k8s-([0-9a-f]{16})-node-http-hc$/,
    why: "the legacy GKE Service controller's node health-check rule",
  },
];

/**
 * The per-cluster rule of a GKE controller that `rule` is, when it is one in
 * network `networkName` of `project` (its `network` URL must be that
 * network's); undefined for anything else, including such a name on another network.
 */
export function gkeControllerFirewall(rule: Pick<GoogleItem, 'name' | 'network'>, project: string, networkName: string): GkeControllerFirewall | undefined {
  if (resourcePath(rule.network) !== `projects/${project}/global/networks/${networkName}`) return undefined;
  const gateway = gatewayFirewallPattern(networkName).exec(rule.name);
  if (gateway) {
    return {
      owner: 'gateway',
      ...(gateway[1] ? { clusterId: gateway[1] } : {}),
      why: `the GKE Gateway controller's rule for network ${networkName}: one per cluster and network, it outlives the Gateways`,
    };
  }
  for (const { owner, pattern, why } of PER_CLUSTER) {
    const match = pattern.exec(rule.name);
    if (match) return { owner, clusterId: match[1], why };
  }
  return undefined;
}
