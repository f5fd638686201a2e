/**
 * How GKE's controllers name what they make outside Terraform, and so how a
 * piece is told to be an environment's when no link to its network is left.
 * (The firewall rules they make once per cluster and network, by exact name,
 * are in gke-firewall-rules.ts.)
 */
import { GoogleItem as Item } from '../../kit/google/google-api-reader';

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

/** The cluster ids of one environment, learned from the names of what is known to be its own, and matched in other names. */
export class GkeIds {
  private readonly short = new Set<string>();
  private readonly long = new Set<string>();
  private readonly gateway = new Set<string>();

  /** Learns a Gateway controller's cluster hash (from the network's `gkegw1-<hash>-l7-...` firewall rule). */
  learnGatewayHash(hash: string): void {
    this.gateway.add(hash);
  }

  /** Learns the Gateway controller's cluster hash from `gkegw1-` pieces already linked to the environment. */
  learnGateway(items: readonly Pick<Item, 'name'>[]): void {
    for (const { name } of items) {
      const hash = GATEWAY_ID.exec(name)?.[1];
      if (hash) this.gateway.add(hash);
    }
  }

  /** Learns the ids in the names of resources known to be the environment's. */
  learn(items: readonly Pick<Item, 'name'>[]): void {
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
 * Whether a firewall rule or an instance group is one GKE's load-balancer controllers made, by its
 * name: their instance groups are the `k8s*` ones; their firewall rules the `k8s*` ones and the
 * Gateway controller's `gkegw1-*` (the cluster's own are `gke-<cluster>-*`, Terraform's `<env>-gke-*`).
 */
export function controllerNamed(kind: 'compute:firewall' | 'compute:instance-group', name: string): boolean {
  return name.startsWith('k8s') || (kind === 'compute:firewall' && name.startsWith('gkegw1-'));
}
