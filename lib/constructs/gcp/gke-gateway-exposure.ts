import { DataKubernetesResource } from '@cdktf/provider-kubernetes/lib/data-kubernetes-resource';
import { Manifest } from '@cdktf/provider-kubernetes/lib/manifest';
import { ServiceV1 } from '@cdktf/provider-kubernetes/lib/service-v1';
import { ITerraformDependable } from 'cdktf';
import { Construct } from 'constructs';
import { ExposureMode } from '../../model/modes';
import { Exposure, ExposureProps } from '../exposure';
import { exposureLabels, exposureObjectName } from '../k8s/exposure-objects';
import { exposureGateway, exposureGatewayService, exposureGatewayUrl, exposureHttpRoute, readExposureGateway } from '../k8s/gateway-exposure-objects';
import { annotationAddress } from './gce-ingress-exposure';
import { LB_SERVICE_IGNORED_ANNOTATIONS } from './gke-load-balancer-service-exposure';

/** GKE's GatewayClass for a global external Application Load Balancer (Envoy-based, NEG backends). */
export const GKE_GATEWAY_CLASS = 'gke-l7-global-external-managed';
/** API group and version of GKE's GCPBackendPolicy. */
export const GCP_BACKEND_POLICY_API_VERSION = 'networking.gke.io/v1';

export interface GkeGatewayExposureProps extends ExposureProps {
  /**
   * GatewayClass of the Gateway.
   * @default GKE_GATEWAY_CLASS
   */
  readonly gatewayClassName?: string;
  /**
   * Name of a Cloud Armor security policy for the load balancer's backend service (a reference to the policy,
   * so the objects come after it): a GCPBackendPolicy `spec.default.securityPolicy` targeting the Service.
   * @default - no GCPBackendPolicy: the load balancer admits any client
   */
  readonly securityPolicy?: string;
}

/**
 * The `native` exposure through the Gateway API instead of an Ingress, on GKE:
 * a Gateway of class `gke-l7-global-external-managed` (a global external
 * Application Load Balancer) with an HTTP listener on port 80 and an
 * `HTTPRoute` to a ClusterIP Service. GKE's Gateway controller gives the
 * Service NEGs and the load balancer sends to Pod IPs, as the `native`
 * Ingress does: only the API differs.
 *
 * GKE installs the Gateway API CRDs when the cluster has
 * `gateway_api_config { channel = "CHANNEL_STANDARD" }` (the cluster stack,
 * applied first), so `kubernetes_manifest` can plan these objects. The
 * Gateway waits until GKE writes its address; the URL is read back from it.
 * With `securityPolicy`, a GCPBackendPolicy (`networking.gke.io/v1`)
 * targeting the Service attaches the Cloud Armor policy to its backend
 * service. This relies on GKE installing the GCPBackendPolicy CRD with its
 * Gateway controller (together with the Gateway API CRDs, when the cluster
 * has `gateway_api_config`), so it can be planned like the Gateway; the
 * HTTPRoute waits for it, so the Gateway does not route to the Service before
 * the policy is asked for.
 *
 * On destroy the provider waits for each object to be gone; GKE's controller
 * (managed, in the control plane) deletes the load balancer first.
 */
export class GkeGatewayExposure extends Construct implements Exposure {
  /** The exposure mode. */
  public readonly mode: ExposureMode;
  /** The backend Service. */
  public readonly service: ServiceV1;
  /** The Gateway. */
  public readonly gatewayManifest: Manifest;
  /** The HTTPRoute. */
  public readonly route: Manifest;
  /** The GCPBackendPolicy with the security policy, when one is given. */
  public readonly backendPolicy?: Manifest;
  /** The Gateway as read back, with its address. */
  public readonly gateway: DataKubernetesResource;
  /** `http://<load balancer IP>/`, from the Gateway status. */
  public readonly url: string;

  constructor(scope: Construct, id: string, props: GkeGatewayExposureProps) {
    super(scope, id);
    this.mode = props.mode;
    this.service = exposureGatewayService(this, props, {
      // GKE annotates Services of a VPC-native cluster for NEGs and writes NEG status on them.
      lifecycle: { ignoreChanges: LB_SERVICE_IGNORED_ANNOTATIONS.map(annotationAddress) },
    });

    const name = exposureObjectName(this.mode);
    const labels = exposureLabels(this.mode);
    const namespace = props.namespace;

    this.gatewayManifest = new Manifest(this, 'gateway-object', {
      manifest: exposureGateway(name, namespace, labels, props.gatewayClassName ?? GKE_GATEWAY_CLASS),
      // GKE takes minutes to program a global load balancer; the address comes first.
      wait: { fields: { 'status.addresses[0].value': '^[0-9.]+$' } },
      timeouts: { create: '20m', update: '20m', delete: '20m' },
    });

    if (props.securityPolicy !== undefined) {
      this.backendPolicy = new Manifest(this, 'backend-policy', {
        manifest: {
          apiVersion: GCP_BACKEND_POLICY_API_VERSION,
          kind: 'GCPBackendPolicy',
          metadata: { name, namespace, labels },
          spec: {
            default: { securityPolicy: props.securityPolicy },
            targetRef: { group: '', kind: 'Service', name: this.service.metadata.name },
          },
        },
      });
    }

    this.route = new Manifest(this, 'route', {
      manifest: exposureHttpRoute(name, namespace, labels),
      dependsOn: [this.gatewayManifest, this.service, ...(this.backendPolicy ? [this.backendPolicy] : [])],
    });

    this.gateway = readExposureGateway(this, name, namespace, [this.gatewayManifest, this.route]);
    this.url = exposureGatewayUrl(this.gateway);
  }

  /** What the app's Pods must come after (GKE adds the NEG readiness gate only to Pods created once the NEGs exist). */
  public get loadBalancerObjects(): ITerraformDependable[] {
    return [this.service, this.gatewayManifest, this.route, ...(this.backendPolicy ? [this.backendPolicy] : [])];
  }
}
