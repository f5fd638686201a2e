import { DataKubernetesResource } from '@cdktf/provider-kubernetes/lib/data-kubernetes-resource';
import { ServiceV1 } from '@cdktf/provider-kubernetes/lib/service-v1';
import { ITerraformDependable } from 'cdktf';
import { Construct } from 'constructs';
import { ExposureMode } from '../../model/modes';
import { admitsAnyAddress } from '../../model/cidr';
import { exposureLabels, exposureObjectName } from '../k8s/exposure-objects';
import { exposureGateway, exposureGatewayService, exposureGatewayUrl, exposureHttpRoute, GATEWAY_API_GROUP_VERSION, readExposureGateway } from '../k8s/gateway-exposure-objects';
import { KubernetesManifest, ManifestsRelease } from '../k8s/manifests-release';
import { Exposure, ExposureProps } from '../exposure';

/** `spec.controllerName` of a GatewayClass served by the AWS Load Balancer Controller's ALB Gateway controller. */
export const ALB_GATEWAY_CONTROLLER_NAME = 'gateway.k8s.aws/alb';
/** API group and version of the controller's Gateway configuration CRDs (v3.5.0 serves and stores v1). */
export const LBC_GATEWAY_API_VERSION = 'gateway.k8s.aws/v1';

export interface AlbGatewayExposureProps extends ExposureProps {
  /**
   * Name of the cluster-scoped GatewayClass this exposure creates.
   * @default 'hoplab-alb'
   */
  readonly gatewayClassName?: string;
  /**
   * Tags for this load balancer, on top of the controller's default tags.
   * @default - none
   */
  readonly tags?: Readonly<Record<string, string>>;
  /**
   * The kubectl image of the hook Job that waits for the Gateway to be
   * programmed, at the cluster's minor version (kubectl is supported within one
   * minor of the API server; see `kubectlImage` in lib/model/versions.ts). Required.
   */
  readonly kubectlImage: string;
  /**
   * Client CIDR blocks the ALB's security group admits (`LoadBalancerConfiguration`
   * `spec.sourceRanges`, v3.5.0). Left out when a block admits any address (the
   * controller's default is 0.0.0.0/0).
   * @default ['0.0.0.0/0']
   */
  readonly sourceRanges?: readonly string[];
  /**
   * The AWS Load Balancer Controller's Helm release, and anything else to come
   * first (required). Everything here depends on it: created after its webhooks
   * answer, deleted (and the ALB with it: finalizers on the GatewayClass,
   * Gateway and configuration objects) before it is uninstalled.
   */
  readonly dependsOn: ITerraformDependable[];
}

/**
 * The `native` exposure through the Gateway API instead of an Ingress: an
 * internet-facing ALB made by the AWS Load Balancer Controller's ALB Gateway
 * controller (v3.5.0) from a GatewayClass (`gateway.k8s.aws/alb`), a Gateway
 * with an HTTP listener on port 80 whose `LoadBalancerConfiguration` asks for
 * the `internet-facing` scheme (the default is internal), an `HTTPRoute` to a
 * ClusterIP Service, and a `TargetGroupConfiguration` on that Service with
 * `ip` targets (the controller's default is instance). Same data path as
 * `native`: ALB -> Pod IP.
 *
 * The custom resources go through a Helm release (see {@link ManifestsRelease})
 * because their CRDs are created in the same apply. A post-install hook runs
 * `kubectl wait --for=condition=Programmed` on the Gateway, so the release is
 * done when the ALB is; the URL is then read from the Gateway's
 * `status.addresses` with a `kubernetes_resource` data source.
 */
export class AlbGatewayExposure extends Construct implements Exposure {
  public readonly mode: ExposureMode;
  public readonly url: string;
  public readonly loadBalancerObjects: ITerraformDependable[];
  /** The backend Service. */
  public readonly service: ServiceV1;
  /** The Helm release holding GatewayClass, Gateway, HTTPRoute and the controller's configuration. */
  public readonly objects: ManifestsRelease;
  /** The Gateway as read back after it is programmed. */
  public readonly gateway: DataKubernetesResource;

  constructor(scope: Construct, id: string, props: AlbGatewayExposureProps) {
    super(scope, id);
    this.mode = props.mode;
    this.service = exposureGatewayService(this, props, { dependsOn: [...props.dependsOn] });

    const name = exposureObjectName(props.mode);
    const labels = exposureLabels(props.mode);
    const namespace = props.namespace;
    const className = props.gatewayClassName ?? 'hoplab-alb';
    const waiter = `${name}-wait`;
    const hook = (weight: number) => ({
      'helm.sh/hook': 'post-install,post-upgrade',
      'helm.sh/hook-weight': String(weight),
      'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded',
    });
    const manifests: KubernetesManifest[] = [
      {
        apiVersion: GATEWAY_API_GROUP_VERSION,
        kind: 'GatewayClass',
        metadata: { name: className, labels },
        spec: { controllerName: ALB_GATEWAY_CONTROLLER_NAME },
      },
      {
        apiVersion: LBC_GATEWAY_API_VERSION,
        kind: 'LoadBalancerConfiguration',
        metadata: { name, namespace, labels },
        spec: {
          scheme: 'internet-facing',
          ...(props.sourceRanges && !admitsAnyAddress(props.sourceRanges) ? { sourceRanges: [...props.sourceRanges] } : {}),
          ...(props.tags && Object.keys(props.tags).length > 0 ? { tags: { ...props.tags } } : {}),
        },
      },
      exposureGateway(name, namespace, labels, className, { parametersRef: { group: 'gateway.k8s.aws', kind: 'LoadBalancerConfiguration', name } }),
      {
        apiVersion: LBC_GATEWAY_API_VERSION,
        kind: 'TargetGroupConfiguration',
        metadata: { name, namespace, labels },
        spec: {
          targetReference: { name },
          defaultConfiguration: {
            targetType: 'ip',
            healthCheckConfig: { healthCheckPath: '/', healthCheckProtocol: 'HTTP', matcher: { httpCode: '200' } },
            // Shorter than the app's termination grace period, as on the Ingress ALBs.
            targetGroupAttributes: [{ key: 'deregistration_delay.timeout_seconds', value: '30' }],
          },
        },
      },
      exposureHttpRoute(name, namespace, labels),
      // The wait: a post-install hook Job that returns once the controller marks the Gateway Programmed (its ALB is active).
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: waiter, namespace, labels } },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: waiter, namespace, labels },
        rules: [{ apiGroups: ['gateway.networking.k8s.io'], resources: ['gateways'], verbs: ['get', 'list', 'watch'] }],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: waiter, namespace, labels },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: waiter },
        subjects: [{ kind: 'ServiceAccount', name: waiter, namespace }],
      },
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: waiter, namespace, labels, annotations: hook(0) },
        spec: {
          backoffLimit: 2,
          activeDeadlineSeconds: 840,
          template: {
            metadata: { labels },
            spec: {
              serviceAccountName: waiter,
              restartPolicy: 'Never',
              containers: [
                {
                  name: 'wait',
                  image: props.kubectlImage,
                  args: ['wait', '--namespace', namespace, '--for=condition=Programmed', `gateway/${name}`, '--timeout=780s'],
                  resources: { requests: { cpu: '10m', memory: '32Mi' }, limits: { memory: '64Mi' } },
                  securityContext: { allowPrivilegeEscalation: false, runAsNonRoot: true, runAsUser: 65532 },
                },
              ],
            },
          },
        },
      },
    ];

    this.objects = new ManifestsRelease(this, 'objects', {
      releaseName: name,
      namespace,
      manifests,
      dependsOn: [...props.dependsOn, this.service],
    });

    this.gateway = readExposureGateway(this, name, namespace, [this.objects.release]);
    this.loadBalancerObjects = [this.objects.release];
    this.url = exposureGatewayUrl(this.gateway);
  }
}
