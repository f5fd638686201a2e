import { admitsAnyAddress, cidr, contains, inRanges, ipv4Value, notCoveredBy, overlaps, parseCidr, subnet, hostAt } from '../../lib/model/cidr';

describe('CIDR math', () => {
  test.each([
    ['10.0.0.0/16', 0x0a000000n, 0x0a00ffffn, 65536n],
    ['10.0.0.0/19', 0x0a000000n, 0x0a001fffn, 8192n],
    ['192.168.1.7/32', 0xc0a80107n, 0xc0a80107n, 1n],
    ['0.0.0.0/0', 0n, 0xffffffffn, 4294967296n],
  ])('GIVEN %s WHEN parsed THEN the first and last address and the size are exact', (text, first, last, size) => {
    expect(cidr(text)).toMatchObject({ text, first, last, size });
  });

  test.each([
    ['10.0.0.5/16', 'has host bits set; the network address of that block is "10.0.0.0/16"'],
    ['10.0.0.0', 'is not an IPv4 CIDR block (expected a.b.c.d/n, e.g. "10.0.0.0/16")'],
    ['10.0.0.256/24', 'is not an IPv4 CIDR block (each octet 0-255 without leading zeroes, prefix 0-32)'],
    ['10.0.0.0/33', 'is not an IPv4 CIDR block (each octet 0-255 without leading zeroes, prefix 0-32)'],
  ])('GIVEN %s WHEN parsed THEN it is refused: %s', (text, reason) => {
    expect(parseCidr(text)).toEqual({ ok: false, reason });
  });

  test('GIVEN blocks that touch at the edges THEN overlap and containment are exact at the first and last address', () => {
    expect(overlaps(cidr('10.0.0.0/19'), cidr('10.0.32.0/19'))).toBe(false);
    expect(overlaps(cidr('10.0.0.0/19'), cidr('10.0.31.255/32'))).toBe(true);
    expect(contains(cidr('10.0.0.0/19'), cidr('10.0.31.255/32'))).toBe(true);
    expect(contains(cidr('10.0.0.0/19'), cidr('10.0.32.0/32'))).toBe(false);
    expect(contains(cidr('10.0.0.0/16'), cidr('10.0.0.0/16'))).toBe(true);
  });

  test("GIVEN a block WHEN split as Terraform's cidrsubnet splits it THEN the index-th block comes back, and out-of-range requests fail naming the range", () => {
    expect(subnet(cidr('10.0.0.0/16'), 3, 0).text).toBe('10.0.0.0/19');
    expect(subnet(cidr('10.0.0.0/16'), 3, 7).text).toBe('10.0.224.0/19');
    expect(() => subnet(cidr('10.0.0.0/16'), 3, 8)).toThrow('10.0.0.0/16 holds 8 /19 blocks; index 8 is out of range');
    expect(() => subnet(cidr('10.0.0.0/30'), 3, 0)).toThrow('cannot split 10.0.0.0/30 into /33 blocks');
  });

  test.each([
    [['0.0.0.0/0'], true],
    [['203.0.113.0/24', '0.0.0.0/0'], true],
    [['0.0.0.0/1', '128.0.0.0/1'], false],
    [['203.0.113.0/24'], false],
  ])('GIVEN %j WHEN asked whether it admits any address THEN %p (only a /0 block does; two halves are still a list to filter by)', (blocks, expected) => {
    expect(admitsAnyAddress(blocks)).toBe(expected);
  });
});

describe('notCoveredBy', () => {
  test.each([
    [['0.0.0.0/0'], ['0.0.0.0/0'], []],
    [['0.0.0.0/0'], ['203.0.113.0/24'], ['0.0.0.0/0']],
    [['203.0.113.0/25'], ['203.0.113.0/24'], []],
    [['203.0.113.0/24'], ['203.0.113.0/25', '203.0.113.128/25'], []],
    [['203.0.113.0/24'], ['203.0.113.0/25'], ['203.0.113.0/24']],
    [['198.51.100.0/24', '203.0.113.7/32'], ['203.0.113.0/24'], ['198.51.100.0/24']],
    [['10.0.0.0/8'], ['10.0.0.0/9', '10.128.0.0/10', '10.192.0.0/10'], []],
  ])('GIVEN %j and the union of %j WHEN compared THEN the blocks with an address outside it are %j', (blocks, by, expected) => {
    expect(notCoveredBy(blocks, by)).toEqual(expected);
  });
});

describe('IPv4 addresses (ip-address)', () => {
  test.each<[string, bigint | undefined]>([
    ['10.0.1.2', 167772418n],
    ['0.0.0.0', 0n],
    ['255.255.255.255', 4294967295n],
    ['::ffff:10.0.1.2', 167772418n],
    ['::FFFF:10.0.1.2', 167772418n],
    ['10.0.1.2/32', undefined],
    ['010.0.1.2', undefined],
    ['256.0.0.1', undefined],
    ['10.0.1', undefined],
    [' 10.0.1.2', undefined],
    ['fe80::1', undefined],
    ['not-an-ip', undefined],
    ['', undefined],
  ])('GIVEN %j THEN its value is %p', (address, value) => {
    expect(ipv4Value(address)).toBe(value);
  });

  test('GIVEN blocks THEN an address is in them from the first address to the last, and what is no address never is', () => {
    expect(['10.0.0.0', '10.0.31.255', '::ffff:10.0.31.255', '10.0.32.0', '9.255.255.255'].map((a) => inRanges(a, ['10.0.0.0/19']))).toEqual([true, true, true, false, false]);
    expect(inRanges('10.0.0.1', ['192.168.0.0/16', '10.0.0.0/8'])).toBe(true);
    expect(inRanges('10.0.0.1', [])).toBe(false);
    expect(inRanges('10.0.0.1', ['not a block', '10.0.0.5/8'])).toBe(false);
    expect(inRanges('10.0.0.0/8', ['10.0.0.0/8'])).toBe(false);
  });
});

describe('hostAt', () => {
  test('GIVEN a block THEN the address offset places after its network address, and an offset outside it fails naming the size', () => {
    expect(hostAt('10.0.0.0/19', 10)).toBe('10.0.0.10');
    expect(hostAt('10.0.32.0/19', 300)).toBe('10.0.33.44');
    expect(hostAt('203.0.113.0/24', 255)).toBe('203.0.113.255');
    expect(() => hostAt('203.0.113.0/24', 256)).toThrow('203.0.113.0/24 holds 256 addresses; offset 256 is outside it');
  });
});
