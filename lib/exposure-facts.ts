import { ExposureMode } from './config/schema';
import { Cloud, ExposureOutput } from './contract';

/** What an exposure is, apart from where it lives: the static part of an `exposure_<mode>` output. */
export type ExposureFacts = Omit<ExposureOutput, 'mode' | 'cloud' | 'url'>;

/**
 * `client_ip_preserved` follows DESIGN.md: whether the Pod sees the client and
 * not a node of the cluster. Behind an L7 load balancer the TCP peer is always
 * the proxy; `client_ip_seen_as` says where the client address is then.
 *
 * The facts of DESIGN.md per cloud and exposure mode. The `-lb` stacks export
 * them next to each URL; `explain` derives the same facts from the synthesized
 * resources, and a test holds the two together.
 */
export const EXPOSURE_FACTS: Readonly<Record<Cloud, Readonly<Record<ExposureMode, ExposureFacts>>>> = {
  aws: {
    native: {
      lb_kind: 'alb',
      target_type: 'ip',
      expected_hops: 1,
      client_ip_preserved: true,
      client_ip_seen_as: 'X-Forwarded-For; the TCP peer is the ALB',
      health_check: 'each Pod IP on its port (HTTP /), with Pod readiness gates',
      external_traffic_policy: 'Cluster',
    },
    nodeport: {
      lb_kind: 'alb',
      target_type: 'instance',
      expected_hops: 2,
      client_ip_preserved: false,
      client_ip_seen_as: 'a node address (SNAT by kube-proxy) as TCP peer; only the L7 X-Forwarded-For header still names the client',
      health_check: "every node's NodePort (HTTP /): passes on nodes without a Pod too",
      external_traffic_policy: 'Cluster',
    },
    'nodeport-local': {
      lb_kind: 'nlb',
      target_type: 'instance',
      expected_hops: 1,
      client_ip_preserved: true,
      client_ip_seen_as: 'TCP source address (no proxy, no SNAT)',
      health_check: "each node's healthCheckNodePort (HTTP /healthz): only nodes with a ready Pod pass",
      external_traffic_policy: 'Local',
    },
  },
  gcp: {
    native: {
      lb_kind: 'gclb-application',
      target_type: 'neg',
      expected_hops: 1,
      client_ip_preserved: true,
      client_ip_seen_as: "X-Forwarded-For; the TCP peer is a Google Front End proxy",
      health_check: "each Pod endpoint in the NEGs (HTTP /: Pods start after the Ingress, so GKE uses its default path, not the readiness probe's)",
      external_traffic_policy: 'Cluster',
    },
    nodeport: {
      lb_kind: 'gclb-application',
      target_type: 'instance-group',
      expected_hops: 2,
      client_ip_preserved: false,
      client_ip_seen_as: 'a node address (SNAT by kube-proxy) as TCP peer; only the L7 X-Forwarded-For header still names the client',
      health_check: "every node's NodePort in the instance groups (HTTP /)",
      external_traffic_policy: 'Cluster',
    },
    'nodeport-local': {
      lb_kind: 'gcp-passthrough-nlb',
      // The node VMs: behind a regional backend service as instance groups, or GCE_VM_IP NEGs on newer GKE.
      target_type: 'instance',
      expected_hops: 1,
      client_ip_preserved: true,
      client_ip_seen_as: 'TCP source address (passthrough, no SNAT)',
      health_check: "each node's healthCheckNodePort (HTTP /healthz): only nodes with a ready Pod pass",
      external_traffic_policy: 'Local',
    },
  },
};
