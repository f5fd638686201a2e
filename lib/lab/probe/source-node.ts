/**
 * Which node a SNATed request came from, measured: for each reply whose TCP
 * source was a node address, whether that node is the one the answering Pod
 * runs on (the receiving node served it locally) or another node (it forwarded
 * the request). kube-proxy SNATs both (with `externalTrafficPolicy: Cluster`);
 * Cilium's kube-proxy replacement only the second, so its local requests keep
 * the client address instead. It needs the Pod's node address, which EKS node
 * names carry (`ip-10-0-1-23.ec2.internal`); GKE node names do not, so there
 * the share stays unknown.
 */
import { addressInNodeName } from './echo-reply';
import { Sample } from './probe';
import { classifyPeer } from './peer';
import { plural } from '../../kit/terminal/terminal';

export interface SourceNodeShare {
  /** Successful replies. */
  readonly replies: number;
  /** Replies whose TCP source was a node address, and whose Pod's node address is known. */
  readonly from_a_node: number;
  /** ... of which the node was the answering Pod's own node (SNAT even though the Pod was local). */
  readonly own_node: number;
  /** ... of which it was another node (the request was forwarded). */
  readonly other_node: number;
  /** Replies whose TCP source was not a node: the prober itself (no SNAT), or a proxy. */
  readonly not_from_a_node: number;
  /** Replies that cannot be told apart: no client address, or the Pod's node address is unknown. */
  readonly unknown: number;
  /** One line for the report. */
  readonly summary: string;
}

const percent = (part: number, whole: number) => `${Math.round((100 * part) / whole)}%`;

/** Counts, over the successful replies, where their TCP source was: own node, another node, not a node. */
export function sourceNodeShare(samples: readonly Sample[], ctx: { readonly proberAddress: string | null; readonly nodeRanges: readonly string[] }): SourceNodeShare {
  const ok = samples.filter((s): s is Extract<Sample, { ok: true }> => s.ok);
  const nodeAddresses = new Set(ok.map((s) => (s.reply.node ? addressInNodeName(s.reply.node) : undefined)).filter((a): a is string => a !== undefined));
  let own = 0;
  let other = 0;
  let notNode = 0;
  let unknown = 0;
  for (const sample of ok) {
    const peer = sample.reply.clientAddress?.replace(/^::ffff:/, '');
    const podNode = sample.reply.node ? addressInNodeName(sample.reply.node) : undefined;
    if (peer === undefined) {
      unknown += 1;
    } else if (classifyPeer(peer, ctx.proberAddress, nodeAddresses, ctx.nodeRanges) !== 'node') {
      notNode += 1;
    } else if (podNode === undefined) {
      unknown += 1;
    } else if (peer === podNode) {
      own += 1;
    } else {
      other += 1;
    }
  }
  const fromNode = own + other;
  let summary: string;
  if (ok.length === 0) {
    summary = 'no successful reply: nothing measured';
  } else if (fromNode === 0 && unknown > 0) {
    summary = `cannot tell nodes apart for ${unknown} of ${plural(ok.length, 'reply', 'replies')} (the Pod's node address is not in its node name, or no client address)`;
  } else if (fromNode === 0) {
    summary = `no reply came from a node address (${notNode} of ${ok.length} from the prober or a proxy)`;
  } else {
    summary =
      `TCP source was a node for ${fromNode} of ${plural(ok.length, 'reply', 'replies')}: the Pod's own node ${own} (${percent(own, fromNode)}), another node ${other} (${percent(other, fromNode)})` +
      (notNode > 0 ? `; ${notNode} not from a node` : '') +
      (unknown > 0 ? `; ${unknown} unknown` : '') +
      (own > 0 ? ' -> SNAT even when the Pod was on the receiving node (kube-proxy)' : notNode > 0 ? ' -> local requests kept the client address (SNAT only for remote Pods, as with Cilium)' : '');
  }
  return { replies: ok.length, from_a_node: fromNode, own_node: own, other_node: other, not_from_a_node: notNode, unknown, summary };
}
