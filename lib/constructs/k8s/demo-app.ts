import { DeploymentV1 } from '@cdktf/provider-kubernetes/lib/deployment-v1';
import { NamespaceV1 } from '@cdktf/provider-kubernetes/lib/namespace-v1';
import { ITerraformDependable } from 'cdktf';
import { Construct } from 'constructs';
import { DEMO_DEPLOYMENT } from '../../model/names';

/** Labels that select the demo app's Pods. */
export const DEMO_APP_LABELS: Readonly<Record<string, string>> = {
  'app.kubernetes.io/name': 'hoplab-echo',
  'app.kubernetes.io/part-of': 'hoplab',
};

/** Label every exposure (Service or Ingress) carries, with its mode as value; `explain` finds exposures by it. */
export const EXPOSURE_LABEL = 'hoplab.dev/exposure';

/** Seconds a terminating Pod keeps serving, so load balancers deregister it before it stops. */
export const DEMO_APP_PRESTOP_SECONDS = 15;

/** Port the echo server listens on inside the Pod. */
export const DEMO_APP_PORT = 8080;

export interface DemoAppProps {
  /** Namespace to create for the app. Required. */
  readonly namespace: string;
  /** Container image of the echo server, pinned by tag or digest. Required. */
  readonly image: string;
  /** Number of replicas; fewer than nodes leaves a node without a Pod, which makes the NodePort extra hop visible. Required. */
  readonly replicas: number;
  /**
   * Extra labels on the namespace, e.g. the AWS Load Balancer Controller's
   * `elbv2.k8s.aws/pod-readiness-gate-inject: enabled`.
   * @default - none
   */
  readonly namespaceLabels?: Readonly<Record<string, string>>;
  /**
   * Resources the app waits for (a controller whose webhook must see the Pods).
   * @default - none
   */
  readonly dependsOn?: ITerraformDependable[];
}

/**
 * The demo app: an echo server that answers with the Pod's name, the node's
 * name and the client address it saw. Pod and node names come in through the
 * downward API (`POD_NAME`, `NODE_NAME`, as `registry.k8s.io/echoserver` reads
 * them). Pods spread over nodes, one per node where possible.
 */
export class DemoApp extends Construct {
  /** Name of the namespace. */
  public readonly namespace: string;
  /** The Deployment, for dependencies. */
  public readonly deployment: DeploymentV1;
  /** The namespace resource. */
  public readonly namespaceResource: NamespaceV1;

  constructor(scope: Construct, id: string, props: DemoAppProps) {
    super(scope, id);
    this.namespaceResource = new NamespaceV1(this, 'namespace', {
      metadata: { name: props.namespace, labels: { ...DEMO_APP_LABELS, ...(props.namespaceLabels ?? {}) } },
      // Deleting the namespace waits for its objects' finalizers (GKE's NEG and Ingress controllers
      // can take longer than the provider's 5-minute default), as long as the Ingresses may.
      timeouts: { delete: '20m' },
      dependsOn: props.dependsOn,
    });
    this.namespace = this.namespaceResource.metadata.name;
    const fieldEnv = (name: string, fieldPath: string) => ({ name, valueFrom: { fieldRef: { fieldPath } } });
    this.deployment = new DeploymentV1(this, 'deployment', {
      metadata: { name: DEMO_DEPLOYMENT, namespace: this.namespace, labels: { ...DEMO_APP_LABELS } },
      spec: {
        replicas: String(props.replicas),
        selector: { matchLabels: { ...DEMO_APP_LABELS } },
        template: {
          metadata: { labels: { ...DEMO_APP_LABELS } },
          spec: {
            // Spread Pods over zones, so each zone's load balancer address has a node with a Pod
            // (externalTrafficPolicy Local health-checks only those), and over nodes, so "a node
            // without a Pod" is a node the hop goes through, not chance. Zones are a hard rule:
            // left to scoring, two Pods share a zone about a third of the time.
            // The zone rule counts only nodes whose taints the Pod tolerates (nodeTaintsPolicy Honor;
            // the default, Ignore, counts every node): a drained node is cordoned, which taints it
            // node.kubernetes.io/unschedulable, so when it is its zone's only node the zone drops out
            // of the count and the evicted Pod goes to another zone instead of waiting Pending for it
            // (kubernetes.io/docs/concepts/scheduling-eviction/topology-spread-constraints/, "nodeTaintsPolicy",
            // read 2026-12-07; beta and on by default since Kubernetes 1.26).
            topologySpreadConstraint: [
              {
                maxSkew: 1,
                topologyKey: 'topology.kubernetes.io/zone',
                whenUnsatisfiable: 'DoNotSchedule',
                nodeTaintsPolicy: 'Honor',
                labelSelector: [{ matchLabels: { ...DEMO_APP_LABELS } }],
              },
              { maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: [{ matchLabels: { ...DEMO_APP_LABELS } }] },
            ],
            container: [
              {
                name: 'echo',
                image: props.image,
                port: [{ name: 'http', containerPort: DEMO_APP_PORT, protocol: 'TCP' }],
                env: [fieldEnv('NODE_NAME', 'spec.nodeName'), fieldEnv('POD_NAME', 'metadata.name'), fieldEnv('POD_NAMESPACE', 'metadata.namespace'), fieldEnv('POD_IP', 'status.podIP')],
                readinessProbe: { httpGet: { path: '/', port: 'http' }, periodSeconds: 5 },
                resources: { requests: { cpu: '50m', memory: '32Mi' }, limits: { memory: '64Mi' } },
                securityContext: { allowPrivilegeEscalation: false },
                // The load balancers keep sending to a Pod until they have deregistered it
                // (a few seconds after it leaves the endpoints); nginx would exit at SIGTERM
                // at once and turn those requests into 502s that spoil `compare --probe`.
                lifecycle: { preStop: [{ exec: { command: ['sh', '-c', `sleep ${DEMO_APP_PRESTOP_SECONDS}`] } }] },
              },
            ],
            // Covers the preStop sleep and nginx's own shutdown.
            terminationGracePeriodSeconds: DEMO_APP_PRESTOP_SECONDS + 25,
          },
        },
      },
      waitForRollout: true,
    });
  }
}
