import { KubernetesProvider } from '@cdktf/provider-kubernetes/lib/provider';
import { DeploymentV1 } from '@cdktf/provider-kubernetes/lib/deployment-v1';
import { NamespaceV1 } from '@cdktf/provider-kubernetes/lib/namespace-v1';
import { TerraformStack, Testing } from 'cdktf';
import { DEMO_APP_LABELS, DemoApp, DemoAppProps } from '../../../lib/constructs/k8s/demo-app';
import { kubernetesObjects } from '../../support/k8s-objects';

const PROPS: DemoAppProps = { namespace: 'hoplab', image: 'registry.k8s.io/echoserver:1.10', replicas: 2 };

function synth(props: Partial<DemoAppProps> = {}) {
  const stack = new TerraformStack(Testing.app(), 'test');
  new KubernetesProvider(stack, 'k8s', {});
  new DemoApp(stack, 'app', { ...PROPS, ...props });
  const json = Testing.synth(stack);
  const parsed = JSON.parse(json) as { resource: Record<string, Record<string, { spec: { template: { spec: Record<string, unknown> } } }>> };
  const podSpec = Object.values(parsed.resource.kubernetes_deployment_v1)[0].spec.template.spec;
  return { json, parsed, podSpec, container: (podSpec.container as Record<string, unknown>[])[0] };
}

interface SpreadConstraint {
  readonly max_skew: number;
  readonly topology_key: string;
  readonly when_unsatisfiable: string;
  readonly node_taints_policy?: string;
}
interface SpreadNode {
  readonly name: string;
  readonly zone: string;
  /** Carries a taint the Pod does not tolerate (a cordoned node). */
  readonly tainted: boolean;
}

/**
 * The nodes the scheduler may put a new Pod on under the zone spread constraints that are hard
 * (DoNotSchedule), as Kubernetes documents them (kubernetes.io/docs/concepts/scheduling-eviction/topology-spread-constraints/,
 * read 2026-12-07): a tainted node never takes the Pod; a domain is eligible when it has a node that
 * passes nodeTaintsPolicy (Honor: untainted or tolerated; Ignore, the default: any node); the Pod may go
 * where its domain's count plus one, minus the least count among eligible domains, is at most maxSkew.
 */
function nodesForPod(constraints: readonly SpreadConstraint[], nodes: readonly SpreadNode[], podsPerZone: Readonly<Record<string, number>>): string[] {
  const hard = constraints.filter((c) => c.when_unsatisfiable === 'DoNotSchedule');
  expect(hard.map((c) => c.topology_key)).toEqual(['topology.kubernetes.io/zone']);
  return nodes
    .filter((node) => !node.tainted)
    .filter((node) =>
      hard.every((c) => {
        const eligible = [...new Set(nodes.filter((n) => c.node_taints_policy !== 'Honor' || !n.tainted).map((n) => n.zone))];
        const least = Math.min(...eligible.map((zone) => podsPerZone[zone] ?? 0));
        return (podsPerZone[node.zone] ?? 0) + 1 - least <= c.max_skew;
      }),
    )
    .map((node) => node.name);
}

describe('DemoApp', () => {
  test.each([1, 2, 5])('GIVEN %i replicas WHEN synthesized THEN the Deployment runs that many and waits for the rollout', (replicas) => {
    expect(synth({ replicas }).json).toHaveResourceWithProperties(DeploymentV1, { spec: expect.objectContaining({ replicas: String(replicas) }), wait_for_rollout: true });
  });

  test('GIVEN the app WHEN synthesized THEN the echo server gets node, Pod name, namespace and Pod IP from the downward API', () => {
    expect(synth().container.env).toEqual([
      { name: 'NODE_NAME', value_from: { field_ref: { field_path: 'spec.nodeName' } } },
      { name: 'POD_NAME', value_from: { field_ref: { field_path: 'metadata.name' } } },
      { name: 'POD_NAMESPACE', value_from: { field_ref: { field_path: 'metadata.namespace' } } },
      { name: 'POD_IP', value_from: { field_ref: { field_path: 'status.podIP' } } },
    ]);
  });

  test('GIVEN the app WHEN synthesized THEN Pods spread across zones (hard rule, so every zone has a Pod for Local) and one per node where possible', () => {
    expect(synth().podSpec.topology_spread_constraint).toEqual([
      { max_skew: 1, topology_key: 'topology.kubernetes.io/zone', when_unsatisfiable: 'DoNotSchedule', node_taints_policy: 'Honor', label_selector: [{ match_labels: DEMO_APP_LABELS }] },
      { max_skew: 1, topology_key: 'kubernetes.io/hostname', when_unsatisfiable: 'ScheduleAnyway', label_selector: [{ match_labels: DEMO_APP_LABELS }] },
    ]);
  });

  test('GIVEN the app WHEN synthesized THEN the image and port are pinned, readiness is probed and a terminating Pod keeps serving while load balancers deregister it', () => {
    const { container, podSpec } = synth({ image: 'registry.k8s.io/echoserver:1.10' });
    expect(container).toMatchObject({
      image: 'registry.k8s.io/echoserver:1.10',
      port: [{ name: 'http', container_port: 8080, protocol: 'TCP' }],
      readiness_probe: { http_get: { path: '/', port: 'http' }, period_seconds: 5 },
      lifecycle: { pre_stop: [{ exec: { command: ['sh', '-c', 'sleep 15'] } }] },
    });
    expect(podSpec.termination_grace_period_seconds).toBe(40);
  });

  test('GIVEN namespace labels WHEN synthesized THEN the namespace carries them next to the app labels', () => {
    expect(synth({ namespaceLabels: { 'elbv2.k8s.aws/pod-readiness-gate-inject': 'enabled' } }).json).toHaveResourceWithProperties(NamespaceV1, {
      metadata: { name: 'hoplab', labels: { ...DEMO_APP_LABELS, 'elbv2.k8s.aws/pod-readiness-gate-inject': 'enabled' } },
    });
  });

  test("GIVEN the app WHEN synthesized THEN deleting the namespace may wait 20 minutes for the controllers' finalizers (the provider default is 5)", () => {
    expect(synth().json).toHaveResourceWithProperties(NamespaceV1, { timeouts: { delete: '20m' } });
  });

  test('GIVEN the lab’s nodes, one zone with one node, WHEN that node is drained THEN the evicted Pod has a node to go to (the zone spread leaves the cordoned node out), not Pending', () => {
    // Two zones: a with two nodes, b with one; one Pod in each zone. Draining b's node cordons it (taint
    // node.kubernetes.io/unschedulable:NoSchedule) and evicts its Pod, which needs a node.
    const nodes: SpreadNode[] = [
      { name: 'a1', zone: 'a', tainted: false },
      { name: 'a2', zone: 'a', tainted: false },
      { name: 'b1', zone: 'b', tainted: true },
    ];
    const constraints = synth().podSpec.topology_spread_constraint as SpreadConstraint[];
    expect(nodesForPod(constraints, nodes, { a: 1, b: 0 })).toEqual(['a1', 'a2']);
    // The same constraints without the policy (Kubernetes' default, Ignore) leave it Pending: the drained zone still counts, at 0.
    const ignore = constraints.map((c) => ({ ...c, node_taints_policy: undefined }));
    expect(nodesForPod(ignore, nodes, { a: 1, b: 0 })).toEqual([]);
  });

  test('GIVEN the app WHEN its objects are checked THEN they are valid against the Kubernetes API schema', () => {
    const objects = kubernetesObjects(synth().parsed as never);
    expect(objects.map((o) => o.object.kind).sort()).toEqual(['Deployment', 'Namespace']);
    for (const object of objects) expect(() => object.validate()).not.toThrow();
  });
});
