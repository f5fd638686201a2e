/**
 * What the `gateway` exposure builds the same way on both clouds (AlbGatewayExposure,
 * GkeGatewayExposure): the ClusterIP Service, the Gateway and its HTTPRoute, and the
 * Gateway read back for the URL.
 */
import { DataKubernetesResource } from '@cdktf/provider-kubernetes/lib/data-kubernetes-resource';
import { ServiceV1, ServiceV1Config } from '@cdktf/provider-kubernetes/lib/service-v1';
import { ITerraformDependable } from 'cdktf';
import { Construct } from 'constructs';
import { ExposureProps, serviceTargetPort } from '../exposure';
import { EXPOSURE_PORT, exposureLabels, exposureObjectName } from './exposure-objects';
import { KubernetesManifest } from './manifests-release';

/** API group and version of the Gateway API objects (both clouds' `gateway` exposure). */
export const GATEWAY_API_GROUP_VERSION = 'gateway.networking.k8s.io/v1';

/**
 * The backend Service (construct id `service` in `scope`): ClusterIP, as the load
 * balancer reaches the Pods' IPs directly (ALB `ip` targets, GKE NEGs), no NodePort.
 * `meta` is what the cloud's Service needs besides: what it comes after, what it ignores.
 */
export function exposureGatewayService(scope: Construct, props: ExposureProps, meta: Pick<ServiceV1Config, 'dependsOn' | 'lifecycle'>): ServiceV1 {
  return new ServiceV1(scope, 'service', {
    metadata: { name: exposureObjectName(props.mode), namespace: props.namespace, labels: exposureLabels(props.mode) },
    spec: {
      type: 'ClusterIP',
      selector: { ...props.selector },
      port: [{ name: 'http', port: EXPOSURE_PORT, targetPort: serviceTargetPort(props.targetPort), protocol: 'TCP' }],
    },
    ...meta,
  });
}

/**
 * The Gateway `name` of class `gatewayClassName`: one HTTP listener `http` on
 * {@link EXPOSURE_PORT} for routes of its own namespace, and the class's
 * `infrastructure` where it takes one (the ALB's LoadBalancerConfiguration).
 */
export function exposureGateway(name: string, namespace: string, labels: Record<string, string>, gatewayClassName: string, infrastructure?: object): KubernetesManifest {
  return {
    apiVersion: GATEWAY_API_GROUP_VERSION,
    kind: 'Gateway',
    metadata: { name, namespace, labels },
    spec: {
      gatewayClassName,
      ...(infrastructure ? { infrastructure } : {}),
      listeners: [{ name: 'http', protocol: 'HTTP', port: EXPOSURE_PORT, allowedRoutes: { namespaces: { from: 'Same' } } }],
    },
  };
}

/** The HTTPRoute: every path of the Gateway's `http` listener to the Service `name` on {@link EXPOSURE_PORT}. */
export function exposureHttpRoute(name: string, namespace: string, labels: Record<string, string>): KubernetesManifest {
  return {
    apiVersion: GATEWAY_API_GROUP_VERSION,
    kind: 'HTTPRoute',
    metadata: { name, namespace, labels },
    spec: {
      parentRefs: [{ group: 'gateway.networking.k8s.io', kind: 'Gateway', name, sectionName: 'http' }],
      rules: [{ matches: [{ path: { type: 'PathPrefix', value: '/' } }], backendRefs: [{ name, port: EXPOSURE_PORT }] }],
    },
  };
}

/** The Gateway `name` read back (construct id `gateway` in `scope`) after `dependsOn`: its status holds the load balancer's address. */
export function readExposureGateway(scope: Construct, name: string, namespace: string, dependsOn: ITerraformDependable[]): DataKubernetesResource {
  return new DataKubernetesResource(scope, 'gateway', { apiVersion: GATEWAY_API_GROUP_VERSION, kind: 'Gateway', metadata: { name, namespace }, dependsOn });
}

/** The exposure's URL: `http://<the first address of the Gateway read back>/`. */
export function exposureGatewayUrl(gateway: DataKubernetesResource): string {
  return `http://\${${gateway.fqn}.object.status.addresses[0].value}/`;
}
