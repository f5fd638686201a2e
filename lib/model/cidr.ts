import { Address4 } from 'ip-address';

/** A parsed IPv4 CIDR block: its canonical text and its first and last address as integers. */
export interface Cidr {
  /** The block as written in canonical form, e.g. `10.0.0.0/16`. */
  readonly text: string;
  /** Prefix length, 0 to 32. */
  readonly prefix: number;
  /** First address of the block as an integer. */
  readonly first: bigint;
  /** Last address of the block as an integer. */
  readonly last: bigint;
  /** Number of addresses in the block. */
  readonly size: bigint;
}

/** Why a string is not an acceptable CIDR block. */
export type CidrParseResult = { readonly ok: true; readonly cidr: Cidr } | { readonly ok: false; readonly reason: string };

const CIDR_SHAPE = /^\d{1,3}(\.\d{1,3}){3}\/\d{1,2}$/;

/**
 * Parses an IPv4 CIDR block with the `ip-address` library and insists on the
 * network address (no host bits set), because clouds either reject or silently
 * rewrite a block such as `10.0.0.5/16`.
 */
export function parseCidr(text: string): CidrParseResult {
  if (!CIDR_SHAPE.test(text)) {
    return { ok: false, reason: 'is not an IPv4 CIDR block (expected a.b.c.d/n, e.g. "10.0.0.0/16")' };
  }
  let address: Address4;
  try {
    address = new Address4(text);
  } catch {
    return { ok: false, reason: 'is not an IPv4 CIDR block (each octet 0-255 without leading zeroes, prefix 0-32)' };
  }
  const first = address.startAddress();
  const network = `${first.correctForm()}/${address.subnetMask}`;
  if (network !== text) {
    return { ok: false, reason: `has host bits set; the network address of that block is "${network}"` };
  }
  const firstInt = first.bigInt();
  const lastInt = address.endAddress().bigInt();
  return {
    ok: true,
    cidr: { text, prefix: address.subnetMask, first: firstInt, last: lastInt, size: lastInt - firstInt + 1n },
  };
}

/** Parses a CIDR block that is known to be valid (validated config); throws otherwise. */
export function cidr(text: string): Cidr {
  const result = parseCidr(text);
  if (!result.ok) {
    throw new Error(`"${text}" ${result.reason}`);
  }
  return result.cidr;
}

/** The block that admits every IPv4 address: what a load balancer allows when nothing narrower is configured. */
export const ANY_IPV4 = '0.0.0.0/0';

/**
 * True when a list of (valid) CIDR blocks admits every IPv4 address, i.e. holds a /0:
 * a load balancer then needs no source filter of its own.
 */
export function admitsAnyAddress(blocks: readonly string[]): boolean {
  return blocks.some((block) => cidr(block).prefix === 0);
}

/**
 * An IPv4 address (`a.b.c.d`, no prefix; or IPv4-mapped, `::ffff:a.b.c.d`, as Node names an IPv4
 * peer on a dual-stack socket) as an integer, parsed by `ip-address`; undefined when it is none.
 */
export function ipv4Value(address: string): bigint | undefined {
  const text = address.replace(/^::ffff:/i, '');
  return !text.includes('/') && Address4.isValid(text) ? new Address4(text).bigInt() : undefined;
}

/**
 * `make()` for `key`, remembered: the prober classifies every reply's peer against the same few
 * blocks and addresses (`watch` over 330 exposures: thousands a second), and parsing them again
 * with ip-address each time was most of its CPU. At most 4096 entries, then it starts afresh.
 */
function remembered<V>(memo: Map<string, V>, key: string, make: () => V): V {
  if (memo.has(key)) return memo.get(key) as V;
  if (memo.size >= 4096) memo.clear();
  const value = make();
  memo.set(key, value);
  return value;
}

const BLOCKS = new Map<string, CidrParseResult>();
const ADDRESSES = new Map<string, bigint | undefined>();

/** Whether `address` (see {@link ipv4Value}) is in any of the (valid) CIDR blocks; false when it is no IPv4 address. */
export function inRanges(address: string, blocks: readonly string[]): boolean {
  if (blocks.length === 0) return false;
  const value = remembered(ADDRESSES, address, () => ipv4Value(address));
  return (
    value !== undefined &&
    blocks.some((block) => {
      const parsed = remembered(BLOCKS, block, () => parseCidr(block));
      return parsed.ok && value >= parsed.cidr.first && value <= parsed.cidr.last;
    })
  );
}

/** True when the two blocks share at least one address. */
export function overlaps(a: Cidr, b: Cidr): boolean {
  return a.first <= b.last && b.first <= a.last;
}

/** True when `inner` lies entirely inside `outer`. */
export function contains(outer: Cidr, inner: Cidr): boolean {
  return outer.first <= inner.first && inner.last <= outer.last;
}

/**
 * The blocks of `blocks` that hold an address no block of `by` holds (each
 * block is compared with the union of `by`, so two halves cover their whole).
 * Every block must be valid.
 */
export function notCoveredBy(blocks: readonly string[], by: readonly string[]): string[] {
  const ranges = by.map(cidr).sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : 0));
  const merged: { first: bigint; last: bigint }[] = [];
  for (const r of ranges) {
    const top = merged[merged.length - 1];
    if (top && r.first <= top.last + 1n) top.last = r.last > top.last ? r.last : top.last;
    else merged.push({ first: r.first, last: r.last });
  }
  return blocks.filter((text) => {
    const block = cidr(text);
    return !merged.some((m) => m.first <= block.first && block.last <= m.last);
  });
}

/**
 * The `index`-th block of prefix length `outer.prefix + newBits` inside `outer`
 * (Terraform's `cidrsubnet`).
 */
export function subnet(outer: Cidr, newBits: number, index: number): Cidr {
  const prefix = outer.prefix + newBits;
  if (newBits < 0 || prefix > 32) {
    throw new Error(`cannot split ${outer.text} into /${prefix} blocks`);
  }
  const size = 1n << BigInt(32 - prefix);
  const count = 1n << BigInt(newBits);
  if (index < 0 || BigInt(index) >= count) {
    throw new Error(`${outer.text} holds ${count} /${prefix} blocks; index ${index} is out of range`);
  }
  const first = outer.first + size * BigInt(index);
  return cidr(`${Address4.fromBigInt(first).correctForm()}/${prefix}`);
}

/**
 * The address `offset` places after the network address of `block` (a valid
 * CIDR block), e.g. `hostAt('10.0.0.0/19', 10)` is `10.0.0.10`; throws when the
 * block is smaller than that. Examples drawn from a planned range use it.
 */
export function hostAt(block: string, offset: number): string {
  const parsed = cidr(block);
  if (offset < 0 || BigInt(offset) >= parsed.size) {
    throw new Error(`${block} holds ${parsed.size} addresses; offset ${offset} is outside it`);
  }
  return Address4.fromBigInt(parsed.first + BigInt(offset)).correctForm();
}
