/**
 * What a probe measured, summed up: latency percentiles, errors, spread over
 * Pods and nodes, and who the Pod saw as its client compared with the
 * prober's own address, so SNAT shows as a measured fact.
 */
import { parseCidr } from '../config/cidr';
import { addressInNodeName, forwardedAddresses } from './echo-reply';
import { Sample } from './probe';
import { SourceNodeShare, sourceNodeShare } from './source-node';
import { LatencyStats, latencyStats, tally } from './stats';

/** Source ranges of Google Front Ends and health checks (the TCP peer behind a Google L7 load balancer). */
export const GOOGLE_FRONT_END_RANGES = ['35.191.0.0/16', '130.211.0.0/22'] as const;

/** Who the Pod's TCP peer was. */
export type PeerKind = 'prober' | 'node' | 'google-front-end' | 'other';

export interface ClientIpMeasurement {
  /** The prober's own address, or `null` when unknown (pass `--my-ip`). */
  readonly prober_address: string | null;
  /** TCP peers the Pods saw (client_address), with counts. */
  readonly seen_by_pod: Readonly<Record<string, number>>;
  /** Successful replies per kind of TCP peer. */
  readonly peer_kinds: Readonly<Partial<Record<PeerKind, number>>>;
  /** Successful replies whose X-Forwarded-For names the prober first. */
  readonly forwarded_for_names_prober: number;
  /** Measured: the Pod saw the prober (as TCP peer, or in X-Forwarded-For behind an L7 proxy) and not a node. `null` when not measurable. */
  readonly preserved: boolean | null;
  /** The output's claim, for comparison. */
  readonly expected_preserved: boolean | null;
  /** Whether measurement and claim agree; `null` when either is unknown. */
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

function ipv4ToInt(address: string): bigint | undefined {
  const parts = address.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) {
    return undefined;
  }
  return parts.reduce((acc, p) => acc * 256n + BigInt(p), 0n);
}

/** Whether `address` is in any of the CIDR blocks. */
export function inRanges(address: string, ranges: readonly string[]): boolean {
  const value = ipv4ToInt(address.replace(/^::ffff:/, ''));
  if (value === undefined) {
    return false;
  }
  return ranges.some((text) => {
    const parsed = parseCidr(text);
    return parsed.ok && value >= parsed.cidr.first && value <= parsed.cidr.last;
  });
}

const normalize = (address: string) => address.replace(/^::ffff:/, '');

export interface SummaryContext {
  readonly url: string;
  readonly planned: number;
  readonly gaveUp: boolean;
  readonly proberAddress: string | null;
  readonly expectedPreserved: boolean | null;
  /** Where nodes (and Pods) get addresses: the cluster's `pod_address_range` on AWS (the private subnets). */
  readonly nodeRanges: readonly string[];
}

export function classifyPeer(peer: string, proberAddress: string | null, nodeAddresses: ReadonlySet<string>, nodeRanges: readonly string[]): PeerKind {
  const address = normalize(peer);
  if (proberAddress !== null && address === normalize(proberAddress)) {
    return 'prober';
  }
  if (nodeAddresses.has(address) || inRanges(address, nodeRanges)) {
    return 'node';
  }
  if (inRanges(address, GOOGLE_FRONT_END_RANGES)) {
    return 'google-front-end';
  }
  return 'other';
}

export function summarizeProbe(samples: readonly Sample[], ctx: SummaryContext): ProbeResult {
  const ok = samples.filter((s): s is Extract<Sample, { ok: true }> => s.ok);
  const failed = samples.filter((s): s is Extract<Sample, { ok: false }> => !s.ok);
  const nodeAddresses = new Set(ok.map((s) => (s.reply.node ? addressInNodeName(s.reply.node) : undefined)).filter((a): a is string => a !== undefined));
  const peers = ok.map((s) => s.reply.clientAddress);
  const kinds = peers.map((p) => (p === undefined ? undefined : classifyPeer(p, ctx.proberAddress, nodeAddresses, ctx.nodeRanges)));
  const prober = ctx.proberAddress === null ? null : normalize(ctx.proberAddress);
  const xffNamesProber = ok.filter((s) => prober !== null && forwardedAddresses(s.reply.forwardedFor)[0] === prober).length;
  const withXff = ok.filter((s) => s.reply.forwardedFor !== undefined).length;
  const kindCounts = tally(kinds) as Partial<Record<PeerKind, number>>;
  const seen = tally(peers.map((p) => (p === undefined ? undefined : normalize(p))));
  const known = kinds.filter((k) => k !== undefined).length;

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
  const asExpected = preserved === null || ctx.expectedPreserved === null ? null : preserved === ctx.expectedPreserved;
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
      preserved,
      expected_preserved: ctx.expectedPreserved,
      as_expected: asExpected,
      summary,
    },
    source_node: sourceNodeShare(samples, { proberAddress: ctx.proberAddress, nodeRanges: ctx.nodeRanges }),
  };
}

/** The prober's own address for a URL: loopback for loopback URLs, else `--my-ip`, else unknown. */
export function proberAddressFor(url: URL, myIp: string | undefined): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (/^127\./.test(host)) {
    return '127.0.0.1';
  }
  if (host === '::1') {
    return '::1';
  }
  return myIp ?? null;
}
