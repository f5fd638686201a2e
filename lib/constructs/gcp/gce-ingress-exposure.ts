import { IngressV1 } from '@cdktf/provider-kubernetes/lib/ingress-v1';
import { Manifest } from '@cdktf/provider-kubernetes/lib/manifest';
import { ServiceV1 } from '@cdktf/provider-kubernetes/lib/service-v1';
import { ITerraformDependable } from 'cdktf';
import { Construct } from 'constructs';
import { ExposureMode } from '../../model/modes';
import { Exposure, ExposureProps, serviceTargetPort } from '../exposure';
import { EXPOSURE_PORT, exposureLabels, exposureObjectName } from '../k8s/exposure-objects';

/** Service annotation that turns container-native load balancing (NEGs) on or off for Ingress backends. */
export const NEG_ANNOTATION = 'cloud.google.com/neg';
/** Annotation the GKE NEG controller writes on a Service: which NEGs it made, in which zones. */
export const NEG_STATUS_ANNOTATION = 'cloud.google.com/neg-status';
/** Ingress class annotation; GKE ignores `spec.ingressClassName`, only this selects its controller. */
export const INGRESS_CLASS_ANNOTATION = 'kubernetes.io/ingress.class';
/** Service annotation that names the BackendConfig of the Service's load balancer backends. */
export const BACKEND_CONFIG_ANNOTATION = 'cloud.google.com/backend-config';
/** API group and version of GKE's BackendConfig (a CRD GKE installs in every cluster). */
export const BACKEND_CONFIG_API_VERSION = 'cloud.google.com/v1';

/** `ignore_changes` address of one metadata annotation. */
export function annotationAddress(key: string): string {
  return `metadata[0].annotations["${key}"]`;
}

/** The two GKE Ingress exposure modes and how each reaches the Pods. */
export const GCE_INGRESS_MODES = {
  /** NEG backends: the load balancer sends to Pod IP:port; the Service can stay ClusterIP. */
  native: { serviceType: 'ClusterIP', negAnnotation: '{"ingress": true}' },
  /**
   * Instance-group backends: the load balancer sends to every node's NodePort.
   * A VPC-native cluster gives Services NEGs by default, so the Service opts
   * out explicitly, or this would silently become container-native too.
   */
  nodeport: { serviceType: 'NodePort', negAnnotation: '{"ingress": false}' },
} as const;

/** Props of {@link GceIngressExposure}: `mode` is `native` (NEG backends) or `nodeport` (instance-group backends). */
export interface GceIngressExposureProps extends ExposureProps {
  /**
   * Service and Ingress name.
   * @default `echo-${mode}`
   */
  readonly name?: string;
  /**
   * Name of a Cloud Armor security policy for the load balancer's backend service (a reference to the policy,
   * so the objects come after it): a BackendConfig `spec.securityPolicy.name`, named by the Service's
   * `cloud.google.com/backend-config` annotation.
   * @default - no BackendConfig: the load balancer admits any client
   */
  readonly securityPolicy?: string;
}

/**
 * An external Application Load Balancer made by the GKE Ingress controller
 * (class `gce`) in front of a Service of the demo app, with NEG backends
 * (`native`) or instance-group backends over a NodePort Service with
 * `externalTrafficPolicy: Cluster` (`nodeport`).
 *
 * The URL is read back from the Ingress status (`wait_for_load_balancer`).
 * The NEG controller writes `cloud.google.com/neg-status` on the Service; it
 * is ignored so plans stay empty. The Ingress controller's own annotations
 * (`ingress.kubernetes.io/backends`, `.../url-map`, ...) need no rule: the
 * kubernetes provider drops `*.kubernetes.io` annotations it did not set.
 *
 * With `securityPolicy`, a BackendConfig (`cloud.google.com/v1`, GKE's CRD,
 * always installed) attaches the Cloud Armor policy to the backend service;
 * the Service and Ingress come after it and are deleted before it.
 *
 * On destroy the Ingress goes first and waits until GKE has deleted the load
 * balancer (its finalizer), then the Service (its NEGs are garbage-collected
 * by the NEG controller, whose ServiceNetworkEndpointGroup objects hold the
 * namespace's deletion until they are gone).
 */
export class GceIngressExposure extends Construct implements Exposure {
  /** The exposure mode. */
  public readonly mode: ExposureMode;
  /** The backend Service. */
  public readonly service: ServiceV1;
  /** The Ingress. */
  public readonly ingress: IngressV1;
  /** `http://<load balancer IP>/`, from the Ingress status. */
  public readonly url: string;
  /** The Service (its NEGs) and the Ingress (its load balancer). */
  public readonly loadBalancerObjects: ITerraformDependable[];
  /** The BackendConfig with the security policy, when one is given. */
  public readonly backendConfig?: Manifest;

  constructor(scope: Construct, id: string, props: GceIngressExposureProps) {
    super(scope, id);
    const style = (GCE_INGRESS_MODES as Partial<Record<ExposureMode, (typeof GCE_INGRESS_MODES)[keyof typeof GCE_INGRESS_MODES]>>)[props.mode];
    if (!style) {
      throw new Error(`GceIngressExposure ${id}: mode "${props.mode}" is not an Ingress exposure; use ${Object.keys(GCE_INGRESS_MODES).join(' or ')}`);
    }
    this.mode = props.mode;
    const name = props.name ?? exposureObjectName(props.mode);
    const labels = exposureLabels(props.mode);

    if (props.securityPolicy !== undefined) {
      this.backendConfig = new Manifest(this, 'backend-config', {
        manifest: {
          apiVersion: BACKEND_CONFIG_API_VERSION,
          kind: 'BackendConfig',
          metadata: { name, namespace: props.namespace, labels },
          spec: { securityPolicy: { name: props.securityPolicy } },
        },
        dependsOn: props.dependsOn,
      });
    }
    const dependsOn = this.backendConfig ? [...(props.dependsOn ?? []), this.backendConfig] : props.dependsOn;

    this.service = new ServiceV1(this, 'service', {
      metadata: {
        name,
        namespace: props.namespace,
        labels,
        annotations: {
          [NEG_ANNOTATION]: style.negAnnotation,
          ...(this.backendConfig ? { [BACKEND_CONFIG_ANNOTATION]: JSON.stringify({ default: name }) } : {}),
        },
      },
      spec: {
        type: style.serviceType,
        ...(style.serviceType === 'NodePort' ? { externalTrafficPolicy: 'Cluster' } : {}),
        selector: { ...props.selector },
        port: [{ name: 'http', port: EXPOSURE_PORT, targetPort: serviceTargetPort(props.targetPort), protocol: 'TCP' }],
      },
      dependsOn,
      lifecycle: { ignoreChanges: [annotationAddress(NEG_STATUS_ANNOTATION)] },
    });

    this.ingress = new IngressV1(this, 'ingress', {
      metadata: {
        name,
        namespace: props.namespace,
        labels,
        annotations: { [INGRESS_CLASS_ANNOTATION]: 'gce' },
      },
      spec: {
        defaultBackend: { service: { name: this.service.metadata.name, port: { number: EXPOSURE_PORT } } },
      },
      waitForLoadBalancer: true,
      // GKE takes minutes to program (and to delete) a global load balancer.
      timeouts: { create: '20m', delete: '20m' },
      dependsOn,
    });
    this.loadBalancerObjects = [this.service, this.ingress];
    this.url = `http://${this.ingress.status.get(0).loadBalancer.get(0).ingress.get(0).ip}/`;
  }
}
