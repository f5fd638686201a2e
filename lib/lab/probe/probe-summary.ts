/**
 * What a probe measured, summed up: latency percentiles, errors, spread over
 * Pods and nodes, and who the Pod saw as its client compared with the
 * prober's own address, so SNAT shows as a measured fact.
 */
import { ClientIpVia } from '../../model/contract';
import { addressInNodeName, forwardedAddresses } from './echo-reply';
import { Sample } from './probe';
import { SourceNodeShare, sourceNodeShare } from './source-node';
import { LatencyStats, latencyStats, tally } from './stats';
import { classifyPeer, normalizeAddress, PeerKind } from './peer';

/** The TCP peer in the contract's words: the client (the prober), a node (SNAT), or the load balancer (a proxy); `mixed` when replies disagree. */
export type TcpPeer = 'client' | 'node' | 'load-balancer' | 'mixed';

/** What X-Forwarded-For said: it names the prober first in every reply, is absent from all, or something else. */
export type ForwardedFor = 'names-prober' | 'absent' | 'other';

/** One claim of the output next to what the probe measured. */
export interface ClaimCheck<T> {
  readonly claimed: T | null;
  readonly measured: T | null;
  /** `null` when either side is unknown. */
  readonly matches: boolean | null;
}

export interface ClientIpMeasurement {
  /** The prober's own address, or `null` when unknown (pass `--my-ip`). */
  readonly prober_address: string | null;
  /** TCP peers the Pods saw (client_address), with counts. */
  readonly seen_by_pod: Readonly<Record<string, number>>;
  /** Successful replies per kind of TCP peer. */
  readonly peer_kinds: Readonly<Partial<Record<PeerKind, number>>>;
  /** Successful replies whose X-Forwarded-For names the prober first. */
  readonly forwarded_for_names_prober: number;
  /** The Pod's TCP peer, classified: the client (prober), a node, or the load balancer. `null` when not measurable. */
  readonly tcp_peer: TcpPeer | null;
  /** Whether X-Forwarded-For named the prober; `null` when not measurable (no reply, or the prober's address unknown). */
  readonly x_forwarded_for: ForwardedFor | null;
  /** Measured: where the Pod could find the prober's address (`tcp-source`, `x-forwarded-for` or `none`). */
  readonly client_ip_via: ClientIpVia | null;
  /** Measured: whether a node rewrote the source (the TCP peer was a node). */
  readonly source_nat: boolean | null;
  /** Measured: the prober's address reached the Pod at all (= `client_ip_via !== 'none'`). `null` when not measurable. */
  readonly preserved: boolean | null;
  /** The output's claim, for comparison. */
  readonly expected_preserved: boolean | null;
  /** Each claim of the output (`client_ip_via`, `source_nat`, `client_ip_preserved`) against the measurement. */
  readonly claims: {
    readonly client_ip_via: ClaimCheck<ClientIpVia>;
    readonly source_nat: ClaimCheck<boolean>;
    readonly client_ip_preserved: ClaimCheck<boolean>;
  };
  /** Whether every claim that could be checked matches; `null` when none could. */
  readonly as_expected: boolean | null;
  readonly summary: string;
}

export interface ProbeResult {
  readonly url: string;
  /** Requests planned (`--count`) and sent (fewer when the endpoint looked dead). */
  readonly planned: number;
  readonly sent: number;
  readonly ok: number;
  readonly errors: Readonly<Record<string, number>>;
  /** Gave up after failures in a row with no success. */
  readonly gave_up: boolean;
  /** Latency of successful requests, ms. */
  readonly latency_ms: LatencyStats | null;
  readonly pods: Readonly<Record<string, number>>;
  readonly nodes: Readonly<Record<string, number>>;
  readonly client_ip: ClientIpMeasurement;
  /** Of the replies SNATed by a node: how many by the Pod's own node versus another (see source-node.ts). */
  readonly source_node: SourceNodeShare;
}

export interface SummaryContext {
  readonly url: string;
  readonly planned: number;
  readonly gaveUp: boolean;
  readonly proberAddress: string | null;
  readonly expectedPreserved: boolean | null;
  /** The output's `client_ip_via`, when it has one. @default null */
  readonly expectedVia?: ClientIpVia | null;
  /** The output's `source_nat`, when it has one. @default null */
  readonly expectedSourceNat?: boolean | null;
  /** Where nodes (and Pods) get addresses: the cluster's `pod_address_range` on AWS (the private subnets). */
  readonly nodeRanges: readonly string[];
}

/** Where the Pod could find the prober's address, from who its TCP peer was and what X-Forwarded-For said (compare's rule, for a set of replies or one). */
function viaOf(tcpPeer: TcpPeer | null, forwardedFor: ForwardedFor | null, prober: string | null): ClientIpVia | null {
  if (tcpPeer === 'client') return 'tcp-source';
  if (forwardedFor === 'names-prober') return 'x-forwarded-for';
  if (tcpPeer !== null && prober !== null && (forwardedFor === 'absent' || forwardedFor === 'other')) return 'none';
  return null;
}

/** The TCP peer of one reply in the contract's words. */
function peerOf(kind: PeerKind): Exclude<TcpPeer, 'mixed'> {
  return kind === 'prober' ? 'client' : kind === 'node' ? 'node' : 'load-balancer';
}

/**
 * Each sample's own client-IP verdict, as summarizeProbe would judge that reply alone but
 * with the node addresses of all of `samples` (a SNATed reply names the Pod's node, and its
 * peer is often another node): `via/nat`, e.g. `tcp-source/no-snat`, `none/snat`,
 * `x-forwarded-for/no-snat`, `?/snat` when the prober's address is unknown. `undefined` for a
 * failure or a reply without a client address. `watch` follows these to see a verdict change
 * in the newest replies.
 */
export function replyVerdicts(samples: readonly Sample[], ctx: Pick<SummaryContext, 'proberAddress' | 'nodeRanges'>): (string | undefined)[] {
  const nodeAddresses = new Set(samples.map((s) => (s.ok && s.reply.node ? addressInNodeName(s.reply.node) : undefined)).filter((a): a is string => a !== undefined));
  const prober = ctx.proberAddress === null ? null : normalizeAddress(ctx.proberAddress);
  return samples.map((s) => {
    if (!s.ok || s.reply.clientAddress === undefined) return undefined;
    const peer = peerOf(classifyPeer(s.reply.clientAddress, ctx.proberAddress, nodeAddresses, ctx.nodeRanges));
    const forwarded = forwardedAddresses(s.reply.forwardedFor);
    const forwardedFor: ForwardedFor | null = s.reply.forwardedFor === undefined ? 'absent' : prober === null ? null : forwarded[0] === prober ? 'names-prober' : 'other';
    return `${viaOf(peer, forwardedFor, prober) ?? '?'}/${peer === 'node' ? 'snat' : 'no-snat'}`;
  });
}

export function summarizeProbe(samples: readonly Sample[], ctx: SummaryContext): ProbeResult {
  const ok = samples.filter((s): s is Extract<Sample, { ok: true }> => s.ok);
  const failed = samples.filter((s): s is Extract<Sample, { ok: false }> => !s.ok);
  const nodeAddresses = new Set(ok.map((s) => (s.reply.node ? addressInNodeName(s.reply.node) : undefined)).filter((a): a is string => a !== undefined));
  const peers = ok.map((s) => s.reply.clientAddress);
  const kinds = peers.map((p) => (p === undefined ? undefined : classifyPeer(p, ctx.proberAddress, nodeAddresses, ctx.nodeRanges)));
  const prober = ctx.proberAddress === null ? null : normalizeAddress(ctx.proberAddress);
  const xffNamesProber = ok.filter((s) => prober !== null && forwardedAddresses(s.reply.forwardedFor)[0] === prober).length;
  const withXff = ok.filter((s) => s.reply.forwardedFor !== undefined).length;
  const kindCounts = tally(kinds) as Partial<Record<PeerKind, number>>;
  const seen = tally(peers.map((p) => (p === undefined ? undefined : normalizeAddress(p))));
  const known = kinds.filter((k) => k !== undefined).length;

  const peerKinds = new Set(kinds.filter((k): k is PeerKind => k !== undefined).map(peerOf));
  const tcpPeer: TcpPeer | null = peerKinds.size === 0 ? null : peerKinds.size === 1 ? [...peerKinds][0] : 'mixed';
  const forwardedFor: ForwardedFor | null = ok.length === 0 ? null : withXff === 0 ? 'absent' : prober === null ? null : xffNamesProber === ok.length ? 'names-prober' : 'other';
  const via = viaOf(tcpPeer, forwardedFor, prober);
  const sourceNat = tcpPeer === null || tcpPeer === 'mixed' ? (tcpPeer === 'mixed' && (kindCounts.node ?? 0) > 0 ? true : null) : tcpPeer === 'node';

  let preserved: boolean | null = null;
  let summary: string;
  const seenList = Object.keys(seen).slice(0, 3).join(', ') + (Object.keys(seen).length > 3 ? ', ...' : '');
  if (ok.length === 0) {
    summary = 'no successful reply: nothing measured';
  } else if (known === 0) {
    summary = 'the replies carry no client_address: not measurable';
  } else if ((kindCounts.node ?? 0) > 0) {
    preserved = false;
    summary =
      `Pod saw a node address (${seenList}), not the prober${prober ? ` (${prober})` : ''}: SNAT on the node` +
      (xffNamesProber > 0 ? '; only X-Forwarded-For still names the prober' : withXff > 0 ? '; X-Forwarded-For present' : '');
  } else if (kindCounts.prober === known) {
    preserved = true;
    summary = `Pod saw the prober's own address (${prober}) as TCP peer: no SNAT, no proxy`;
  } else if (prober !== null && xffNamesProber === ok.length) {
    preserved = true;
    summary = `Pod's TCP peer was the load balancer (${seenList}); X-Forwarded-For names the prober (${prober})`;
  } else if (prober === null) {
    summary = `Pod saw ${seenList}${withXff ? ' with X-Forwarded-For' : ''}; the prober's own address is unknown (pass --my-ip) so it cannot be compared`;
  } else {
    preserved = false;
    summary = `Pod saw ${seenList}, not the prober (${prober}), and X-Forwarded-For does not name it: the client address is lost`;
  }
  // Measured preservation follows the contract: the client reached the Pod somewhere (TCP source or X-Forwarded-For).
  preserved = via === null ? null : via !== 'none';
  const check = <T>(claimed: T | null | undefined, measured: T | null): ClaimCheck<T> => ({
    claimed: claimed ?? null,
    measured,
    matches: claimed === null || claimed === undefined || measured === null ? null : claimed === measured,
  });
  const claims = {
    client_ip_via: check(ctx.expectedVia, via),
    source_nat: check(ctx.expectedSourceNat, sourceNat),
    client_ip_preserved: check(ctx.expectedPreserved, preserved),
  };
  const checked = Object.values(claims).filter((c) => c.matches !== null);
  const asExpected = checked.length === 0 ? null : checked.every((c) => c.matches === true);
  return {
    url: ctx.url,
    planned: ctx.planned,
    sent: samples.length,
    ok: ok.length,
    errors: tally(failed.map((s) => s.error)),
    gave_up: ctx.gaveUp,
    latency_ms: latencyStats(ok.map((s) => s.ms)),
    pods: tally(ok.map((s) => s.reply.pod ?? '(no pod name)')),
    nodes: tally(ok.map((s) => s.reply.node ?? '(no node name)')),
    client_ip: {
      prober_address: prober,
      seen_by_pod: seen,
      peer_kinds: kindCounts,
      forwarded_for_names_prober: xffNamesProber,
      tcp_peer: tcpPeer,
      x_forwarded_for: forwardedFor,
      client_ip_via: via,
      source_nat: sourceNat,
      preserved,
      expected_preserved: ctx.expectedPreserved,
      claims,
      as_expected: asExpected,
      summary,
    },
    source_node: sourceNodeShare(samples, { proberAddress: ctx.proberAddress, nodeRanges: ctx.nodeRanges }),
  };
}

/** This machine's loopback address when the URL's host is one (127.0.0.0/8, ::1), else null: no load balancer stands between. */
export function loopbackAddress(url: URL): '127.0.0.1' | '::1' | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (/^127\./.test(host)) {
    return '127.0.0.1';
  }
  return host === '::1' ? '::1' : null;
}

/** The prober's own address for a URL: loopback for loopback URLs, else `--my-ip`, else unknown. */
export function proberAddressFor(url: URL, myIp: string | undefined): string | null {
  return loopbackAddress(url) ?? myIp ?? null;
}
