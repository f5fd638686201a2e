import { ServiceV1 } from '@cdktf/provider-kubernetes/lib/service-v1';
import { ITerraformDependable } from 'cdktf';
import { Construct } from 'constructs';
import { ExposureMode } from '../../model/modes';
import { Exposure, ExposureProps, serviceSourceRanges, serviceTargetPort } from '../exposure';
import { EXPOSURE_PORT, exposureLabels, exposureObjectName } from '../k8s/exposure-objects';
import { annotationAddress, NEG_ANNOTATION, NEG_STATUS_ANNOTATION } from './gce-ingress-exposure';

/**
 * Annotations GKE adds to a Service it did not get from us: on a VPC-native
 * cluster every Service is annotated `cloud.google.com/neg: '{"ingress":true}'`
 * by default (it only matters if an Ingress points at the Service), and the
 * NEG controller may add its status. Ignored so plans stay empty.
 */
export const LB_SERVICE_IGNORED_ANNOTATIONS = [NEG_ANNOTATION, NEG_STATUS_ANNOTATION] as const;

/**
 * Asks GKE (1.25.5+) for a backend service-based passthrough Network Load
 * Balancer instead of the legacy target pool-based one a plain LoadBalancer
 * Service gets. Its regional backend service targets the node VMs, as
 * instance groups or, on newer GKE versions, GCE_VM_IP NEGs; either way the
 * nodes, health-checked on `healthCheckNodePort`.
 */
export const L4_RBS_ANNOTATION = 'cloud.google.com/l4-rbs';

/**
 * `spec.loadBalancerClass` for a backend service-based external passthrough NLB
 * that always has GCE_VM_IP NEG backends (GKE 1.33.1-gke.1779000 and later).
 */
export const L4_REGIONAL_EXTERNAL_CLASS = 'networking.gke.io/l4-regional-external';

/**
 * What GKE builds for the configured minimum version (`gcp.kubernetesVersion`):
 * from 1.34 the load balancer class (every 1.34 is past 1.33.1-gke.1779000, so
 * GCE_VM_IP NEG backends for sure); before, or with the channel's default
 * version (unknown at synth), the l4-rbs annotation, whose backends are
 * instance groups before 1.32.2-gke.1652000 and GCE_VM_IP NEGs from it.
 */
export function gkeL4Backends(version: string | undefined): { readonly useClass: boolean; readonly backends: string } {
  const [major, minor] = (version ?? '').split('.').map(Number);
  const at = (m: number) => version !== undefined && (major > 1 || (major === 1 && minor >= m));
  if (at(34)) return { useClass: true, backends: 'GCE_VM_IP NEGs of the nodes' };
  if (at(33)) return { useClass: false, backends: 'GCE_VM_IP NEGs of the nodes' };
  if (version !== undefined && !at(32)) return { useClass: false, backends: 'instance groups of the nodes' };
  return { useClass: false, backends: 'the nodes, as GCE_VM_IP NEGs from GKE 1.32.2-gke.1652000, as instance groups before' };
}

export interface GkeLoadBalancerServiceExposureProps extends ExposureProps {
  /**
   * The Service's `externalTrafficPolicy`: `Local` (only nodes with a ready Pod
   * pass the health check on `healthCheckNodePort`; no SNAT) or `Cluster` (every
   * node passes kube-proxy's health check on port 10256, and a node without a
   * Pod DNATs and SNATs to one elsewhere).
   * @default 'Local'
   */
  readonly externalTrafficPolicy?: 'Cluster' | 'Local';
  /**
   * Service name.
   * @default `echo-${mode}`
   */
  readonly name?: string;
  /**
   * The cluster's configured minimum GKE version: from 1.34 the Service uses
   * {@link L4_REGIONAL_EXTERNAL_CLASS}, else the {@link L4_RBS_ANNOTATION} (see {@link gkeL4Backends}).
   * @default - the channel's default version: the annotation
   */
  readonly gkeVersion?: string;
  /**
   * Client CIDR blocks the load balancer admits: `spec.loadBalancerSourceRanges`,
   * which GKE makes the source ranges of the Service's ingress firewall rule. Left
   * out when a block admits any address (GKE's default is 0.0.0.0/0).
   * @default ['0.0.0.0/0']
   */
  readonly sourceRanges?: readonly string[];
}

/**
 * A `type: LoadBalancer` Service, by default with `externalTrafficPolicy: Local`
 * (`nodeport-local`; with `Cluster` it is `nodeport-l4`, where a node without a
 * Pod forwards with SNAT and the Pod loses the client's address): GKE
 * makes a backend service-based external passthrough Network Load Balancer
 * (see {@link L4_RBS_ANNOTATION}) whose backends are the nodes; its health check probes each node's `healthCheckNodePort`, which only
 * answers on nodes that host a ready Pod, so traffic takes one hop and keeps
 * the client's source address (no SNAT).
 *
 * The URL is read back from the Service status (`wait_for_load_balancer`).
 * On destroy the provider waits until the Service is gone, which GKE's
 * `service.kubernetes.io/load-balancer-cleanup` finalizer holds until the
 * load balancer, its health check and its `k8s-*` firewall rules are deleted.
 */
export class GkeLoadBalancerServiceExposure extends Construct implements Exposure {
  /** The exposure mode. */
  public readonly mode: ExposureMode;
  /** The Service. */
  public readonly service: ServiceV1;
  /** `http://<load balancer IP>/`, from the Service status. */
  public readonly url: string;
  /** The Service (its load balancer). */
  public readonly loadBalancerObjects: ITerraformDependable[];

  constructor(scope: Construct, id: string, props: GkeLoadBalancerServiceExposureProps) {
    super(scope, id);
    this.mode = props.mode;
    this.service = new ServiceV1(this, 'service', {
      metadata: {
        name: props.name ?? exposureObjectName(this.mode),
        namespace: props.namespace,
        labels: exposureLabels(this.mode),
        annotations: gkeL4Backends(props.gkeVersion).useClass ? {} : { [L4_RBS_ANNOTATION]: 'enabled' },
      },
      spec: {
        type: 'LoadBalancer',
        loadBalancerClass: gkeL4Backends(props.gkeVersion).useClass ? L4_REGIONAL_EXTERNAL_CLASS : undefined,
        externalTrafficPolicy: props.externalTrafficPolicy ?? 'Local',
        ...serviceSourceRanges(props.sourceRanges),
        selector: { ...props.selector },
        port: [{ name: 'http', port: EXPOSURE_PORT, targetPort: serviceTargetPort(props.targetPort), protocol: 'TCP' }],
      },
      waitForLoadBalancer: true,
      dependsOn: props.dependsOn,
      lifecycle: { ignoreChanges: LB_SERVICE_IGNORED_ANNOTATIONS.map(annotationAddress) },
    });
    this.loadBalancerObjects = [this.service];
    this.url = `http://${this.service.status.get(0).loadBalancer.get(0).ingress.get(0).ip}/`;
  }
}
