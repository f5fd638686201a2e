/** Who a reply came from, as the TCP peer address tells it: the prober, a node, a Google front end, or someone else. */
import { inRanges } from '../../model/cidr';

/** Source ranges of Google Front Ends and health checks (the TCP peer behind a Google L7 load balancer). */
export const GOOGLE_FRONT_END_RANGES = ['35.191.0.0/16', '130.211.0.0/22'] as const;

/** Who the Pod's TCP peer was. */
export type PeerKind = 'prober' | 'node' | 'google-front-end' | 'other';

/** An IPv4 address as Node reports it on a dual-stack socket (`::ffff:10.0.1.2`), without the IPv6 prefix. */
export const normalizeAddress = (address: string) => address.replace(/^::ffff:/, '');

/** What kind of peer `peer` is: the prober itself, a node (SNAT), a Google front end, or another address. */
export function classifyPeer(peer: string, proberAddress: string | null, nodeAddresses: ReadonlySet<string>, nodeRanges: readonly string[]): PeerKind {
  const address = normalizeAddress(peer);
  if (proberAddress !== null && address === normalizeAddress(proberAddress)) {
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
