import { ServiceV1 } from '@cdktf/provider-kubernetes/lib/service-v1';
import { ITerraformDependable } from 'cdktf';
import { Construct } from 'constructs';
import { ExposureMode } from '../../model/modes';
import { EXPOSURE_PORT, exposureLabels, exposureObjectName } from '../k8s/exposure-objects';
import { Exposure, ExposureProps, serviceSourceRanges, serviceTargetPort } from '../exposure';
import { tagList } from './tag-list';

/** NLB target types: node NodePorts or Pod IPs. */
export const NLB_TARGET_TYPES = ['instance', 'ip'] as const;
export type NlbTargetType = (typeof NLB_TARGET_TYPES)[number];

export interface NlbServiceExposureProps extends ExposureProps {
  /**
   * `instance`: the NLB targets every node's NodePort (NodePort-based).
   * `ip`: the NLB targets Pod IPs (container-native); no NodePorts are allocated.
   * @default 'instance'
   */
  readonly targetType?: NlbTargetType;
  /**
   * The Service's `externalTrafficPolicy`, which matters for `instance` targets:
   * `Local` sends only to nodes with a ready Pod (health check on
   * `healthCheckNodePort`, no SNAT); `Cluster` lets any node take the packet
   * and SNAT it to a Pod on another node.
   * @default 'Local'
   */
  readonly externalTrafficPolicy?: 'Cluster' | 'Local';
  /** `spec.loadBalancerClass` of the AWS Load Balancer Controller (required). */
  readonly loadBalancerClass: string;
  /**
   * Client CIDR blocks the NLB admits: `spec.loadBalancerSourceRanges`, which the
   * controller turns into the inbound rules of the NLB's own security group. Left
   * out when a block admits any address (the controller's default is 0.0.0.0/0).
   * @default ['0.0.0.0/0']
   */
  readonly sourceRanges?: readonly string[];
  /**
   * Tags for this load balancer and its target group, on top of the controller's default tags.
   * @default - none
   */
  readonly tags?: Readonly<Record<string, string>>;
  /**
   * The AWS Load Balancer Controller's Helm release, and anything else to come
   * first (required). The Service depends on it: created after its webhooks
   * answer, deleted (and its load balancer with it) before it is uninstalled.
   */
  readonly dependsOn: ITerraformDependable[];
}

/**
 * An internet-facing NLB made by the AWS Load Balancer Controller from a
 * `type: LoadBalancer` Service, with client IP preservation on (the target
 * group attribute `preserve_client_ip.enabled=true`: the default for
 * `instance` targets, off by default for TCP `ip` targets, so always said).
 *
 * - `instance` + `Local` (`nodeport-local`): the NLB health-checks each node's
 *   `healthCheckNodePort` (HTTP `/healthz`, kube-proxy answers 200 only where a
 *   ready Pod runs), so it sends only to nodes with a Pod: one hop, no SNAT,
 *   and the Pod sees the client's own address.
 * - `instance` + `Cluster` (`nodeport-l4`): the NLB health-checks every node's
 *   NodePort over TCP, sends to any node, and kube-proxy DNATs and SNATs to a
 *   Pod that may live elsewhere: two hops, and no header carries the client.
 * - `ip` (`native-l4`): the NLB sends to Pod IPs (readiness gates); one hop,
 *   the client kept as TCP source. No NodePorts are allocated.
 */
export class NlbServiceExposure extends Construct implements Exposure {
  public readonly mode: ExposureMode;
  public readonly url: string;
  public readonly loadBalancerObjects: ITerraformDependable[];
  /** The Service. */
  public readonly service: ServiceV1;

  constructor(scope: Construct, id: string, props: NlbServiceExposureProps) {
    super(scope, id);
    this.mode = props.mode;
    const targetType = props.targetType ?? 'instance';
    const policy = props.externalTrafficPolicy ?? 'Local';
    if (!(NLB_TARGET_TYPES as readonly string[]).includes(targetType)) {
      throw new Error(`NlbServiceExposure ${id}: targetType "${targetType}" is not an NLB target type; use "instance" (NodePorts) or "ip" (Pod IPs)`);
    }
    if (targetType === 'ip' && policy === 'Local') {
      throw new Error(`NlbServiceExposure ${id}: externalTrafficPolicy "Local" has no effect with ip targets (the NLB skips the nodes); use "Cluster"`);
    }
    // instance + Local: kube-proxy's healthCheckNodePort tells which nodes hold a ready Pod.
    // Otherwise the controller's default, TCP on the traffic port (the NodePort, or the Pod's port), said explicitly.
    const healthCheck: Record<string, string> =
      targetType === 'instance' && policy === 'Local'
        ? {
            'service.beta.kubernetes.io/aws-load-balancer-healthcheck-protocol': 'http',
            'service.beta.kubernetes.io/aws-load-balancer-healthcheck-path': '/healthz',
          }
        : {
            'service.beta.kubernetes.io/aws-load-balancer-healthcheck-protocol': 'tcp',
            'service.beta.kubernetes.io/aws-load-balancer-healthcheck-port': 'traffic-port',
          };
    const tags = props.tags ?? {};
    this.service = new ServiceV1(this, 'service', {
      metadata: {
        name: exposureObjectName(props.mode),
        namespace: props.namespace,
        labels: exposureLabels(props.mode),
        annotations: {
          'service.beta.kubernetes.io/aws-load-balancer-type': 'external',
          'service.beta.kubernetes.io/aws-load-balancer-scheme': 'internet-facing',
          // Said explicitly, whatever the controller's defaultTargetType says.
          'service.beta.kubernetes.io/aws-load-balancer-nlb-target-type': targetType,
          // With instance targets and externalTrafficPolicy Local the health check port defaults to spec.healthCheckNodePort.
          ...healthCheck,
          // Client IP preservation: on by default for instance targets, off for TCP ip targets; always on here.
          'service.beta.kubernetes.io/aws-load-balancer-target-group-attributes': 'preserve_client_ip.enabled=true,deregistration_delay.timeout_seconds=30',
          // Cross-zone on, decided on purpose (the NLB default is off). With externalTrafficPolicy Local
          // only nodes with a ready Pod pass the health check; with cross-zone off, a zone without such
          // a node leaves that zone's NLB address with no healthy target, and clients that resolve it
          // time out. The demo Pods also spread across zones, but one replica, a rollout or a full
          // zone can still leave a zone empty. The cost is inter-AZ data for the lab's few requests;
          // the path stays one hop to a node with a Pod, and the client IP is still kept.
          'service.beta.kubernetes.io/aws-load-balancer-attributes': 'load_balancing.cross_zone.enabled=true',
          ...(Object.keys(tags).length > 0 ? { 'service.beta.kubernetes.io/aws-load-balancer-additional-resource-tags': tagList(tags) } : {}),
        },
      },
      spec: {
        type: 'LoadBalancer',
        // Named here rather than left to the controller's Service webhook, so Terraform sees no drift.
        loadBalancerClass: props.loadBalancerClass,
        externalTrafficPolicy: policy,
        ...serviceSourceRanges(props.sourceRanges),
        // ip targets skip the nodes: no NodePort is needed (the controller documents this for NLB ip mode).
        ...(targetType === 'ip' ? { allocateLoadBalancerNodePorts: false } : {}),
        selector: { ...props.selector },
        port: [{ name: 'http', port: EXPOSURE_PORT, targetPort: serviceTargetPort(props.targetPort), protocol: 'TCP' }],
      },
      waitForLoadBalancer: true,
      timeouts: { create: '10m' },
      dependsOn: [...props.dependsOn],
    });
    this.loadBalancerObjects = [this.service];
    this.url = `http://${this.service.status.get(0).loadBalancer.get(0).ingress.get(0).hostname}/`;
  }
}
