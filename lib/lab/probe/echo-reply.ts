/**
 * Parses the plain-text reply of `registry.k8s.io/echoserver:1.10`:
 *
 *     Hostname: echo-5d9c...
 *     Pod Information:
 *     	node name:	ip-10-0-1-23.ec2.internal
 *     	pod name:	echo-5d9c...
 *     	pod IP:	10.0.1.57
 *     Request Information:
 *     	client_address=10.0.1.23
 *     Request Headers:
 *     	x-forwarded-for=203.0.113.7
 *
 * Every field is optional: a missing or placeholder line gives `undefined`.
 */

export interface EchoReply {
  /** The Pod's name (`pod name`, else `Hostname`). */
  readonly pod?: string;
  readonly node?: string;
  readonly podIp?: string;
  /** The TCP peer the Pod saw. */
  readonly clientAddress?: string;
  /** The X-Forwarded-For header as received, e.g. `203.0.113.7, 10.0.0.5`. */
  readonly forwardedFor?: string;
}

function value(text: string, pattern: RegExp): string | undefined {
  const found = pattern.exec(text)?.[1]?.trim();
  // echoserver prints "<nil>" or a "-no ... available-" line for unset values.
  return found === undefined || found === '' || found === '<nil>' || found.startsWith('-no ') ? undefined : found;
}

export function parseEchoReply(text: string): EchoReply {
  // 1.10 says "Request Headers:" ... "Request Body:"; older echoservers "HEADERS RECEIVED:" ... "BODY:".
  const headersAt = text.search(/^(Request Headers|HEADERS RECEIVED):\s*$/m);
  const headers = headersAt === -1 ? '' : text.slice(headersAt).split(/^(?:Request Body|BODY):/m)[0];
  const reply: Record<string, string | undefined> = {
    pod: value(text, /^\s*pod name:\s*(.*)$/m) ?? value(text, /^Hostname:\s*(.*)$/m),
    node: value(text, /^\s*node name:\s*(.*)$/m),
    podIp: value(text, /^\s*pod IP:\s*(.*)$/m),
    clientAddress: value(text, /^\s*client_address=(.*)$/m),
    forwardedFor: value(headers, /^\s*x-forwarded-for=(.*)$/im),
  };
  return Object.fromEntries(Object.entries(reply).filter(([, v]) => v !== undefined)) as EchoReply;
}

const NODE_ADDRESSES = new Map<string, string | undefined>();

/**
 * The node address an EKS node name encodes (`ip-10-0-1-23.ec2.internal` -> `10.0.1.23`).
 * Remembered per name (a lab has a few nodes, and `watch` asks for every reply of every
 * snapshot: reading the name again each time was a quarter of its CPU); at most 4096 names.
 */
export function addressInNodeName(node: string): string | undefined {
  if (NODE_ADDRESSES.has(node)) return NODE_ADDRESSES.get(node);
  const match = /^ip-(\d{1,3})-(\d{1,3})-(\d{1,3})-(\d{1,3})(\.|$)/.exec(node);
  if (NODE_ADDRESSES.size >= 4096) NODE_ADDRESSES.clear();
  const address = match ? match.slice(1, 5).join('.') : undefined;
  NODE_ADDRESSES.set(node, address);
  return address;
}

/** The addresses in an X-Forwarded-For value, client first. */
export function forwardedAddresses(header: string | undefined): string[] {
  return header === undefined
    ? []
    : header
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
}
