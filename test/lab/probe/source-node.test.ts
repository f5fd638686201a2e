import { Sample } from '../../../lib/lab/probe/probe';
import { summarizeProbe } from '../../../lib/lab/probe/probe-summary';
import { sourceNodeShare } from '../../../lib/lab/probe/source-node';

const reply = (clientAddress: string | undefined, node: string): Sample => ({
  ok: true,
  ms: 10,
  status: 200,
  reply: { pod: 'echo-a', node, ...(clientAddress ? { clientAddress } : {}) },
});
const ctx = { proberAddress: '203.0.113.7', nodeRanges: ['10.0.0.0/19', '10.0.32.0/19'] };
const NODE_A = 'ip-10-0-1-23.ec2.internal';
const NODE_B = 'ip-10-0-40-5.ec2.internal';

describe('source node of SNATed requests (compare --probe)', () => {
  test("GIVEN kube-proxy with ETP Cluster (every request SNATed, some by the Pod's own node) WHEN summed up THEN own and other node are counted", () => {
    const samples = [reply('10.0.1.23', NODE_A), reply('10.0.40.5', NODE_A), reply('10.0.1.23', NODE_B), reply('10.0.40.5', NODE_B)];
    expect(sourceNodeShare(samples, ctx)).toEqual({
      replies: 4,
      from_a_node: 4,
      own_node: 2,
      other_node: 2,
      not_from_a_node: 0,
      unknown: 0,
      summary: "TCP source was a node for 4 of 4 replies: the Pod's own node 2 (50%), another node 2 (50%) -> SNAT even when the Pod was on the receiving node (kube-proxy)",
    });
  });

  test('GIVEN Cilium with ETP Cluster (local requests keep the client) WHEN summed up THEN only other nodes appear, next to the prober', () => {
    const samples = [reply('203.0.113.7', NODE_A), reply('10.0.40.5', NODE_A), reply('203.0.113.7', NODE_B)];
    const share = sourceNodeShare(samples, ctx);
    expect([share.own_node, share.other_node, share.not_from_a_node]).toEqual([0, 1, 2]);
    expect(share.summary).toBe(
      "TCP source was a node for 1 of 3 replies: the Pod's own node 0 (0%), another node 1 (100%); 2 not from a node -> local requests kept the client address (SNAT only for remote Pods, as with Cilium)",
    );
  });

  test('GIVEN GKE node names (no address in them) WHEN summed up THEN nodes cannot be told apart', () => {
    const share = sourceNodeShare([reply('10.10.0.3', 'gke-lab-gke-nodes-1a2b'), reply('10.10.0.4', 'gke-lab-gke-nodes-3c4d')], { proberAddress: null, nodeRanges: ['10.10.0.0/20'] });
    expect([share.from_a_node, share.unknown]).toEqual([0, 2]);
    expect(share.summary).toBe("cannot tell nodes apart for 2 of 2 replies (the Pod's node address is not in its node name, or no client address)");
  });

  test('GIVEN the prober as every TCP source (Local or ip targets) WHEN summed up THEN no reply came from a node', () => {
    expect(sourceNodeShare([reply('203.0.113.7', NODE_A)], ctx).summary).toBe('no reply came from a node address (1 of 1 from the prober or a proxy)');
  });

  test('GIVEN a probe WHEN summarized THEN the result carries the source-node share', () => {
    const result = summarizeProbe([reply('10.0.1.23', NODE_A)], { ...ctx, url: 'http://lb/', planned: 1, gaveUp: false, expectedPreserved: false });
    expect([result.source_node.own_node, result.source_node.other_node]).toEqual([1, 0]);
  });
});
