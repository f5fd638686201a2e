import { ComputeFirewall } from '@cdktf/provider-google/lib/compute-firewall';
import { Construct } from 'constructs';

/**
 * Source ranges of Google's health checkers and of the Google Front End
 * proxies of external Application Load Balancers (the GKE Ingress), for both
 * instance-group and zonal NEG (GCE_VM_IP_PORT) backends.
 * https://cloud.google.com/load-balancing/docs/firewall-rules
 */
export const GOOGLE_L7_SOURCE_RANGES = ['130.211.0.0/22', '35.191.0.0/16'] as const;

/**
 * Source ranges of the health checks of external passthrough Network Load
 * Balancers (`type: LoadBalancer` Services): the four GKE's own L4 rules open
 * (Google's "Health checks overview", section "Probe IP ranges and firewall
 * rules", cloud.google.com/load-balancing/docs/health-check-concepts: 35.191.0.0/16,
 * 209.85.152.0/22 and 209.85.204.0/22 for backend-service-based passthrough
 * NLBs, 130.211.0.0/22 for target pools; in GKE's code the cloud provider's
 * `--cloud-provider-gce-lb-src-cidrs` flag in kubernetes/cloud-provider-gcp),
 * so this rule allows what GKE's does. Client traffic reaches the nodes from
 * anywhere; GKE opens the Service port for it itself.
 */
export const GOOGLE_L4_HEALTH_CHECK_RANGES = ['130.211.0.0/22', '35.191.0.0/16', '209.85.152.0/22', '209.85.204.0/22'] as const;

/** Kubernetes' default NodePort range; `healthCheckNodePort` is allocated from it too. */
export const NODE_PORT_RANGE = '30000-32767';

/**
 * The node health endpoint GKE's L4 health checks probe for
 * `externalTrafficPolicy: Cluster` Services: kube-proxy's, or under Dataplane
 * V2 (no kube-proxy) Cilium's health server on the same port.
 */
export const KUBE_PROXY_HEALTH_PORT = 10256;

export interface GkeHealthCheckFirewallProps {
  /** Name prefix of the rules (normally the cluster name). Required. */
  readonly name: string;
  /** The VPC network's id. Required. */
  readonly networkId: string;
  /** Network tags of the nodes the rules apply to (Pods' alias IPs belong to their node's VM). Required. */
  readonly targetTags: readonly string[];
  /** Ports the app's Pods serve on: NEG backends and their health checks go straight to Pod IP:port. Required. */
  readonly podPorts: readonly number[];
}

/**
 * Ingress firewall rules that let Google's load balancers reach the nodes
 * and the Pods on them:
 * - `l7`: health checkers and GFE proxies ({@link GOOGLE_L7_SOURCE_RANGES})
 *   to every NodePort (instance-group backends, `healthCheckNodePort`) and to
 *   the Pod ports (NEG backends: Pod IP:port).
 * - `l4`: passthrough NLB health checkers ({@link GOOGLE_L4_HEALTH_CHECK_RANGES})
 *   to every NodePort (`healthCheckNodePort` of `externalTrafficPolicy: Local`)
 *   and to the node health port (kube-proxy's, or Dataplane V2's in its place).
 *
 * GKE's Ingress, Gateway and Service controllers create similar rules of
 * their own (`k8s-*`, `k8s2-*`, `gkegw1-*`): most go with their load
 * balancer, but some are made once per cluster and network and stay (teardown
 * removes those before the network goes: lib/lab/leftovers/gke-firewall-rules.ts).
 * These rules do not replace GKE's: the lab still relies on the controllers'
 * rules for the Service ports, and these open the same sources to the
 * NodePorts, Pod ports and health port up front, so a health check does not
 * wait for a controller's rule. They live in the cluster stack, so they
 * outlast the load balancers on destroy.
 */
export class GkeHealthCheckFirewall extends Construct {
  /** Rule for Application Load Balancers (GKE Ingress). */
  public readonly l7: ComputeFirewall;
  /** Rule for passthrough Network Load Balancers (LoadBalancer Services). */
  public readonly l4: ComputeFirewall;

  constructor(scope: Construct, id: string, props: GkeHealthCheckFirewallProps) {
    super(scope, id);
    if (props.targetTags.length === 0) {
      throw new Error(`GkeHealthCheckFirewall ${id}: targetTags is empty; give the node pool's network tags, or the rules would open every VM in the network`);
    }
    const common = { network: props.networkId, direction: 'INGRESS', priority: 1000, targetTags: [...props.targetTags] };
    this.l7 = new ComputeFirewall(this, 'l7', {
      ...common,
      name: `${props.name}-allow-l7-lb`,
      description: 'hoplab: Google health checks and Application Load Balancer proxies to NodePorts (instance groups) and Pod ports (NEGs)',
      sourceRanges: [...GOOGLE_L7_SOURCE_RANGES],
      allow: [{ protocol: 'tcp', ports: [NODE_PORT_RANGE, ...props.podPorts.map(String)] }],
    });
    this.l4 = new ComputeFirewall(this, 'l4', {
      ...common,
      name: `${props.name}-allow-l4-lb-hc`,
      description: 'hoplab: passthrough Network Load Balancer health checks to healthCheckNodePorts and the node health port',
      sourceRanges: [...GOOGLE_L4_HEALTH_CHECK_RANGES],
      allow: [{ protocol: 'tcp', ports: [NODE_PORT_RANGE, String(KUBE_PROXY_HEALTH_PORT)] }],
    });
  }
}
