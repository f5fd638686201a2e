/**
 * GKE's naming rules (lib/lab/leftovers/gke-names.ts): the cluster ids in the
 * names GKE's controllers give what they make, learned from an environment's
 * own pieces and matched in others.
 */
import { controllerNamed, GkeIds } from '../../../lib/lab/leftovers/gke-names';

const learned = (...names: string[]) => {
  const ids = new GkeIds();
  ids.learn(names.map((name) => ({ name })));
  return ids;
};

describe('GkeIds', () => {
  test.each([
    ['a NEG, k8s1-<id8>-', 'k8s1-4f2a9c1d-hoplab-echo-80-0a1b2c3d', 'k8s1-4f2a9c1d-other-svc-8080-ffff0000', '4f2a9c1d'],
    ['an L4 frontend, k8s2-<kind>-<id8>-', 'k8s2-tcp-abcdefgh-hoplab-echo-l4-1a2b', 'k8s2-fr-abcdefgh-hoplab-echo-l4-1a2b', 'abcdefgh'],
    ['a v2 name without a kind, k8s3-<id8>-', 'k8s3-zyxwvuts-ns-svc-0', 'k8s3-zyxwvuts-ns-other-1', 'zyxwvuts'],
  ])('GIVEN %s of the environment THEN another name with its id matches it', (_what, own, other, id) => {
    expect(learned(own).match(other)).toBe(id);
    expect(learned(own).match(other.replace(id, 'q1q1q1q1'))).toBeUndefined();
  });

  test("GIVEN the Ingress controller's long uid (k8s-ig--<uid>) THEN names ending in it match it, and k8s1- names with its first 8 characters match those", () => {
    const ids = learned('k8s-ig--4f2a9c1d0e5b6a7c');
    expect(ids.match('k8s-be-30080--4f2a9c1d0e5b6a7c')).toBe('4f2a9c1d0e5b6a7c');
    expect(ids.match('k8s1-4f2a9c1d-hoplab-echo-80-0a1b2c3d')).toBe('4f2a9c1d');
    // Only k8s- names carry the long uid at their end; a short one is no uid.
    expect(ids.match('other--4f2a9c1d0e5b6a7c')).toBeUndefined();
    expect(learned('k8s-ig--abc').match('k8s-be-80--abc')).toBeUndefined();
  });

  test("GIVEN the Gateway controller's hash, from its firewall rule or a linked gkegw1- piece THEN gkegw1-<hash>- names match, others' do not", () => {
    const ids = new GkeIds();
    ids.learnGatewayHash('x7k2');
    ids.learnGateway([{ name: 'gkegw1-m3n4-hoplab-echo-gateway-80-1' }, { name: 'k8s1-4f2a9c1d-x' }]);
    expect(['gkegw1-x7k2-a-b-80-c', 'gkegw1-m3n4-a-b-80-c', 'gkegw1-q1w2-a-b-80-c'].map((n) => ids.match(n))).toEqual(['gkegw1-x7k2', 'gkegw1-m3n4', undefined]);
    // learnGateway learns only Gateway hashes.
    expect(ids.match('k8s1-4f2a9c1d-y')).toBeUndefined();
  });
});

describe('controllerNamed', () => {
  test("GIVEN firewall rules and instance groups THEN the k8s ones, and the Gateway controller's gkegw1- rules, are the load-balancer controllers'", () => {
    expect(['k8s-fw-l7--4f2a9c1d0e5b6a7c', 'gkegw1-x7k2-l7-lab-gke-global', 'gke-lab-gke-1a2b3c4d-all', 'lab-gke-health-checks'].map((n) => controllerNamed('compute:firewall', n))).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(['k8s-ig--4f2a9c1d0e5b6a7c', 'gkegw1-x7k2-ig', 'gke-lab-gke-nodes-grp'].map((n) => controllerNamed('compute:instance-group', n))).toEqual([true, false, false]);
  });
});
