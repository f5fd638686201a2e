import { IngressV1 } from '@cdktf/provider-kubernetes/lib/ingress-v1';
import { ServiceV1 } from '@cdktf/provider-kubernetes/lib/service-v1';
import { ITerraformDependable } from 'cdktf';
import { Construct } from 'constructs';
import { EXPOSURE_PORT, exposureLabels, exposureObjectName } from '../k8s/exposure-objects';
import { Exposure, ExposureProps, serviceTargetPort } from '../exposure';
import { tagList } from './tag-list';
import { ExposureMode } from '../../model/modes';
import { ANY_IPV4 } from '../../model/cidr';

/** ALB target types: Pod IPs, or every node's NodePort. */
export const ALB_TARGET_TYPES = ['ip', 'instance'] as const;
export type AlbTargetType = (typeof ALB_TARGET_TYPES)[number];

export interface AlbIngressExposureProps extends ExposureProps {
  /**
   * `ip`: the ALB targets Pod IPs behind a ClusterIP Service (container-native).
   * `instance`: the ALB targets every node's NodePort of a `NodePort` Service.
   * Required.
   */
  readonly targetType: AlbTargetType;
  /** IngressClass of the AWS Load Balancer Controller (required). */
  readonly ingressClassName: string;
  /**
   * Client CIDR blocks the ALB's security group admits (`alb.ingress.kubernetes.io/inbound-cidrs`).
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
   * first (required). The Service and Ingress depend on it: created after its
   * webhooks answer, deleted (and their load balancer with them) before it is uninstalled.
   */
  readonly dependsOn: ITerraformDependable[];
}

/**
 * An internet-facing ALB of its own (no ingress group), made by the AWS Load
 * Balancer Controller from an Ingress, with HTTP on port 80 to one Service.
 * With `ip` targets the ALB sends to Pod IPs (one hop); with `instance` targets
 * to the NodePort of every node, and kube-proxy forwards (and SNATs) to a Pod
 * that may live on another node (`externalTrafficPolicy: Cluster`).
 */
export class AlbIngressExposure extends Construct implements Exposure {
  public readonly mode: ExposureMode;
  public readonly url: string;
  public readonly loadBalancerObjects: ITerraformDependable[];
  /** The backend Service. */
  public readonly service: ServiceV1;
  /** The Ingress. */
  public readonly ingress: IngressV1;

  constructor(scope: Construct, id: string, props: AlbIngressExposureProps) {
    super(scope, id);
    if (!(ALB_TARGET_TYPES as readonly string[]).includes(props.targetType)) {
      throw new Error(`AlbIngressExposure ${id}: targetType "${props.targetType}" is not an ALB target type; use "ip" (Pod IPs) or "instance" (NodePorts)`);
    }
    this.mode = props.mode;
    const name = exposureObjectName(props.mode);
    const labels = exposureLabels(props.mode);
    const nodePorts = props.targetType === 'instance';

    this.service = new ServiceV1(this, 'service', {
      metadata: { name, namespace: props.namespace, labels },
      spec: {
        // ip targets need no NodePort: the ALB reaches Pod IPs in the VPC directly.
        type: nodePorts ? 'NodePort' : 'ClusterIP',
        ...(nodePorts ? { externalTrafficPolicy: 'Cluster' } : {}),
        selector: { ...props.selector },
        port: [{ name: 'http', port: EXPOSURE_PORT, targetPort: serviceTargetPort(props.targetPort), protocol: 'TCP' }],
      },
      dependsOn: [...props.dependsOn],
    });

    const tags = props.tags ?? {};
    this.ingress = new IngressV1(this, 'ingress', {
      metadata: {
        name,
        namespace: props.namespace,
        labels,
        annotations: {
          'alb.ingress.kubernetes.io/scheme': 'internet-facing',
          'alb.ingress.kubernetes.io/target-type': props.targetType,
          'alb.ingress.kubernetes.io/listen-ports': JSON.stringify([{ HTTP: EXPOSURE_PORT }]),
          'alb.ingress.kubernetes.io/inbound-cidrs': (props.sourceRanges ?? [ANY_IPV4]).join(','),
          'alb.ingress.kubernetes.io/healthcheck-path': '/',
          'alb.ingress.kubernetes.io/success-codes': '200',
          // Shorter than the app's termination grace period, so a stopping Pod drains before it exits.
          'alb.ingress.kubernetes.io/target-group-attributes': 'deregistration_delay.timeout_seconds=30',
          ...(Object.keys(tags).length > 0 ? { 'alb.ingress.kubernetes.io/tags': tagList(tags) } : {}),
        },
      },
      spec: {
        ingressClassName: props.ingressClassName,
        rule: [
          {
            http: {
              path: [{ path: '/', pathType: 'Prefix', backend: { service: { name: this.service.metadata.name, port: { number: EXPOSURE_PORT } } } }],
            },
          },
        ],
      },
      waitForLoadBalancer: true,
      timeouts: { create: '10m', delete: '15m' },
      dependsOn: [...props.dependsOn],
    });
    this.loadBalancerObjects = [this.ingress];
    this.url = `http://${this.ingress.status.get(0).loadBalancer.get(0).ingress.get(0).hostname}/`;
  }
}
