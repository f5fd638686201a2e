/**
 * progressOf, the pure function every view shows: what was read of each cluster, checked
 * exercise by exercise; a read that failed makes only the checks that need it "could not
 * check"; and what a previous look saw done stays done (a node put back leaves no trace).
 */
import { ClusterState, KubeObject } from '../../../lib/lab/progress/checks';
import { AttendeePlan, progressOf, stateKey } from '../../../lib/lab/progress/progress';
import { labClusterObjects, LabClusterState } from '../../support/lab-cluster';

/** A ClusterState from the objects a loopback cluster would answer. */
function state(s: LabClusterState): ClusterState {
  const objects = labClusterObjects(s) as Record<string, { items?: KubeObject[] } & KubeObject>;
  const services = objects['/api/v1/namespaces/hoplab/services'].items!;
  return {
    deployment: { value: objects['/apis/apps/v1/namespaces/hoplab/deployments/echo'] },
    services: { value: Object.fromEntries(services.map((x) => [(x.metadata as { labels: Record<string, string> }).labels['hoplab.dev/exposure'], x])) },
    nodes: { value: objects['/api/v1/nodes'].items! },
    pods: { value: objects['/api/v1/namespaces/hoplab/pods'].items! },
  };
}

/** The fixture's exercises on EKS (native, nodeport, nodeport-local), as the handout plans them. */
const PLAN: AttendeePlan = {
  env: 'ann',
  attendee: 'ann',
  exercises: [
    { id: 'snat', cloud: 'aws', mode: 'nodeport-local', case: 'nodeport-local' },
    { id: 'local-health-check', cloud: 'aws', mode: 'nodeport-local' },
    { id: 'readiness-gates', cloud: 'aws', mode: 'native' },
    { id: 'extra-hop', cloud: 'aws', mode: 'nodeport' },
    { id: 'drain', cloud: 'aws', mode: 'nodeport' },
    { id: 'datapath', cloud: 'aws', mode: 'nodeport-local', case: 'kube-proxy-iptables' },
  ],
};
const facts = { replicas: 2 };
const line = (p: ReturnType<typeof progressOf>) => p[0].exercises.map((e) => `${e.id} ${e.status}: ${e.why}`);

describe('progressOf', () => {
  test('GIVEN a rollout under way and Pods without the gate THEN not yet, saying how far it is and what is missing', () => {
    const running = progressOf([PLAN], new Map([[stateKey('ann', 'aws'), state({ cloud: 'aws', restarted: { updated: 1, gatesTrue: true } })]]), facts);
    expect(line(running)).toContain('readiness-gates not yet: rollout of echo under way: 1 of 2 updated, 2 available');
    const ungated = state({ cloud: 'aws', restarted: { updated: 2, gatesTrue: true } });
    const pods = (ungated.pods as { value: KubeObject[] }).value.map((p) => ({ ...p, spec: { ...p.spec, readinessGates: [] } }));
    expect(line(progressOf([PLAN], new Map([[stateKey('ann', 'aws'), { ...ungated, pods: { value: pods } }]]), facts))).toContain(
      'readiness-gates not yet: rolled out, but 2 of 2 Pods carry no target-health.elbv2.k8s.aws/… readiness gate',
    );
  });

  test('GIVEN the Deployment scaled back without kubectl, or to another count THEN not yet, each saying so', () => {
    expect(line(progressOf([PLAN], new Map([[stateKey('ann', 'aws'), state({ cloud: 'aws' })]]), facts))).toContain('local-health-check not yet: echo was never scaled with kubectl');
    expect(line(progressOf([PLAN], new Map([[stateKey('ann', 'aws'), state({ cloud: 'aws', replicas: 3, scaledWithKubectl: true })]]), facts))).toContain(
      'local-health-check not yet: echo is at 3 replicas; the exercise scales to 1 and back to 2',
    );
  });

  test('GIVEN the Pods could not be listed THEN only the checks that need them could not be checked; the Service and Deployment checks still run', () => {
    const partial = { ...state({ cloud: 'aws', patchedWithKubectl: true }), pods: { why: 'GET .../pods answered 403 (Forbidden): pods is forbidden' } };
    expect(line(progressOf([PLAN], new Map([[stateKey('ann', 'aws'), partial]]), facts))).toEqual([
      'snat done: echo-nodeport-local flipped and back on Local (kubectl-patch)',
      'local-health-check not yet: echo was never scaled with kubectl',
      'readiness-gates could not check: GET .../pods answered 403 (Forbidden): pods is forbidden',
      'extra-hop not checkable: requests only: nothing changes in the cluster (compare --probe measures it)',
      'drain could not check: GET .../pods answered 403 (Forbidden): pods is forbidden',
      "datapath not checkable: reading a node's rules changes nothing in the cluster",
    ]);
  });

  test('GIVEN a drain seen in one look and the node put back before the next THEN it stays done, said as seen earlier', () => {
    const drained = progressOf([PLAN], new Map([[stateKey('ann', 'aws'), state({ cloud: 'aws', cordoned: ['node-a'] })]]), facts);
    const back = progressOf([PLAN], new Map([[stateKey('ann', 'aws'), state({ cloud: 'aws' })]]), facts, drained);
    expect(line(back)).toContain('drain done: node-a drained (no app Pod left on it); kubectl uncordon puts it back (seen earlier)');
    expect(line(progressOf([PLAN], new Map([[stateKey('ann', 'aws'), state({ cloud: 'aws' })]]), facts, back))).toContain(
      'drain done: node-a drained (no app Pod left on it); kubectl uncordon puts it back (seen earlier)',
    );
  });
});
