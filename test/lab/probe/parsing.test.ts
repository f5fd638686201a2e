import { readFileSync } from 'node:fs';
import { addressInNodeName, forwardedAddresses, parseEchoReply } from '../../../lib/lab/probe/echo-reply';
import { proberAddressFor, replyVerdicts, summarizeProbe } from '../../../lib/lab/probe/probe-summary';
import { classifyPeer } from '../../../lib/lab/probe/peer';
import { inRanges } from '../../../lib/model/cidr';
import { Sample } from '../../../lib/lab/probe/probe';
import { latencyStats, percentile, tally } from '../../../lib/lab/probe/stats';
import { fixture } from '../../support/fixtures';

describe('parseEchoReply', () => {
  test('GIVEN an echoserver 1.10 reply THEN Pod, node, Pod IP, client address and X-Forwarded-For', () => {
    const reply = readFileSync(fixture('echoserver-reply.txt'), 'utf8');
    expect(parseEchoReply(reply)).toEqual({
      pod: 'echo-5d9c7b8f6d-x2k4p',
      node: 'ip-10-0-1-23.ec2.internal',
      podIp: '10.0.1.57',
      clientAddress: '10.0.1.23',
      forwardedFor: '203.0.113.7',
    });
  });

  test.each([
    ['an empty body', '', {}],
    ['only a Hostname line', 'Hostname: echo-abc\n', { pod: 'echo-abc' }],
    [
      'placeholders for missing downward-API values',
      'Pod Information:\n\t-no pod information available-\n\tnode name:\t<nil>\nRequest Information:\n\tclient_address=10.1.2.3\n',
      { clientAddress: '10.1.2.3' },
    ],
    ['an x-forwarded-for outside the headers section', '\tx-forwarded-for=1.2.3.4\nRequest Headers:\n\thost=x\n', {}],
    ['the old echoserver format', 'CLIENT VALUES:\nclient_address=172.17.0.7\nHEADERS RECEIVED:\nx-forwarded-for=172.17.0.1\nBODY:\n', { clientAddress: '172.17.0.7', forwardedFor: '172.17.0.1' }],
  ])('GIVEN %s THEN only what is there', (_, text, expected) => {
    expect(parseEchoReply(text)).toEqual(expected);
  });

  test('EKS node names encode the node address; X-Forwarded-For lists the client first', () => {
    expect(addressInNodeName('ip-10-0-1-23.ec2.internal')).toBe('10.0.1.23');
    expect(addressInNodeName('ip-192-168-7-9.us-west-2.compute.internal')).toBe('192.168.7.9');
    expect(addressInNodeName('gke-lab-gke-lab-gke-nodes-1a2b3c4d-x9z8')).toBeUndefined();
    expect(forwardedAddresses('203.0.113.7, 10.0.230.5')).toEqual(['203.0.113.7', '10.0.230.5']);
    expect(forwardedAddresses(undefined)).toEqual([]);
  });
});

describe('stats', () => {
  test('nearest-rank percentiles', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect([percentile(values, 50), percentile(values, 95), percentile(values, 99), percentile(values, 100)]).toEqual([50, 95, 99, 100]);
    expect(percentile([7], 99)).toBe(7);
    expect(latencyStats([3.14159, 1, 2])).toEqual({ min: 1, p50: 2, p95: 3.1, p99: 3.1, max: 3.1 });
    expect(latencyStats([])).toBeNull();
  });

  test('tally counts, keys sorted, undefined left out', () => {
    expect(Object.entries(tally(['b', 'a', undefined, 'b']))).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
  });
});

describe('client address measurement', () => {
  const ok = (clientAddress: string, extra: { node?: string; forwardedFor?: string } = {}): Sample => ({
    ok: true,
    ms: 10,
    status: 200,
    reply: { pod: 'echo-a', clientAddress, ...extra },
  });
  const ctx = { url: 'http://lb/', planned: 2, gaveUp: false, proberAddress: '203.0.113.7', expectedPreserved: null, nodeRanges: ['10.0.0.0/19'] };

  test('peers: the prober, a node (by EKS node name or node range), a Google Front End, other', () => {
    const nodes = new Set(['10.0.40.1']);
    expect(classifyPeer('203.0.113.7', '203.0.113.7', nodes, [])).toBe('prober');
    expect(classifyPeer('::ffff:203.0.113.7', '203.0.113.7', nodes, [])).toBe('prober');
    expect(classifyPeer('10.0.40.1', '203.0.113.7', nodes, [])).toBe('node');
    expect(classifyPeer('10.0.1.23', null, nodes, ['10.0.0.0/19'])).toBe('node');
    expect(classifyPeer('35.191.10.20', null, nodes, [])).toBe('google-front-end');
    expect(classifyPeer('10.0.230.5', '203.0.113.7', nodes, ['10.0.0.0/19'])).toBe('other');
    expect(inRanges('not-an-ip', ['10.0.0.0/8'])).toBe(false);
  });

  test.each([
    ['the first address of the block', '10.0.0.0', true],
    ['the last address of the block', '10.0.31.255', true],
    ['the last address, IPv4-mapped', '::ffff:10.0.31.255', true],
    ['one past the last address', '10.0.32.0', false],
    ['one before the first address', '9.255.255.255', false],
  ])('GIVEN %s (%s) WHEN checked against 10.0.0.0/19 THEN inRanges says %p: both ends of a block are inside it', (_name, address, inside) => {
    expect(inRanges(address, ['10.0.0.0/19'])).toBe(inside);
    expect(classifyPeer(address, null, new Set(), ['10.0.0.0/19'])).toBe(inside ? 'node' : 'other');
  });

  test.each([
    ['the prober as TCP peer', [ok('203.0.113.7')], ['client', 'absent', 'tcp-source', false, true], "Pod saw the prober's own address (203.0.113.7) as TCP peer: no SNAT, no proxy"],
    [
      'a node as TCP peer, the prober in X-Forwarded-For (L7 over NodePorts: SNAT, yet the client is named)',
      [ok('10.0.1.23', { forwardedFor: '203.0.113.7' })],
      ['node', 'names-prober', 'x-forwarded-for', true, true],
      'Pod saw a node address (10.0.1.23), not the prober (203.0.113.7): SNAT on the node; only X-Forwarded-For still names the prober',
    ],
    [
      'a node as TCP peer and no header (L4 over NodePorts with ETP Cluster: the client is gone)',
      [ok('10.0.1.23')],
      ['node', 'absent', 'none', true, false],
      'Pod saw a node address (10.0.1.23), not the prober (203.0.113.7): SNAT on the node',
    ],
    [
      'the load balancer as TCP peer, the prober in X-Forwarded-For',
      [ok('10.0.230.5', { forwardedFor: '203.0.113.7, 10.0.230.5' })],
      ['load-balancer', 'names-prober', 'x-forwarded-for', false, true],
      "Pod's TCP peer was the load balancer (10.0.230.5); X-Forwarded-For names the prober (203.0.113.7)",
    ],
    [
      'another address and no X-Forwarded-For',
      [ok('10.0.230.5')],
      ['load-balancer', 'absent', 'none', false, false],
      'Pod saw 10.0.230.5, not the prober (203.0.113.7), and X-Forwarded-For does not name it: the client address is lost',
    ],
  ] as const)('GIVEN %s THEN the TCP peer, header, client_ip_via and source_nat are measured, and the matching claims hold', (_, samples, measured, summary) => {
    const [tcpPeer, xff, via, sourceNat, preserved] = measured;
    const result = summarizeProbe(samples, { ...ctx, expectedPreserved: preserved, expectedVia: via, expectedSourceNat: sourceNat });
    expect(result.client_ip).toMatchObject({ tcp_peer: tcpPeer, x_forwarded_for: xff, client_ip_via: via, source_nat: sourceNat, preserved, as_expected: true, summary });
    expect(result.client_ip.claims.client_ip_via).toEqual({ claimed: via, measured: via, matches: true });
  });

  test("GIVEN replies of every kind THEN each reply's own verdict is the one summarizeProbe gives it alone, a node known from any reply's node name", () => {
    const samples: Sample[] = [
      ok('203.0.113.7'),
      // SNATed by the other node: its address is known from the second reply's node name, not its own.
      ok('10.0.40.1', { node: 'ip-10-0-1-23.ec2.internal' }),
      ok('10.0.1.23', { node: 'ip-10-0-40-1.ec2.internal' }),
      ok('10.0.1.23', { forwardedFor: '203.0.113.7' }),
      ok('10.0.230.5', { forwardedFor: '203.0.113.7, 10.0.230.5' }),
      ok('10.0.230.5'),
      { ok: true, ms: 1, status: 200, reply: { pod: 'echo-a' } },
      { ok: false, ms: 1, error: 'HTTP 503' },
    ];
    const classes = replyVerdicts(samples, { proberAddress: ctx.proberAddress, nodeRanges: [] });
    expect(classes).toEqual(['tcp-source/no-snat', 'none/snat', 'none/snat', 'x-forwarded-for/snat', 'x-forwarded-for/no-snat', 'none/no-snat', undefined, undefined]);
    // Alone, a reply knows the nodes only by their ranges: give it those of both nodes.
    const alone = (s: Sample) => summarizeProbe([s], { ...ctx, nodeRanges: ['10.0.1.0/24', '10.0.40.0/24'] }).client_ip;
    for (const [i, s] of samples.slice(0, 6).entries()) expect(classes[i]).toBe(`${alone(s).client_ip_via}/${alone(s).source_nat ? 'snat' : 'no-snat'}`);
    expect(replyVerdicts([ok('10.0.230.5', { forwardedFor: '203.0.113.7' })], { proberAddress: null, nodeRanges: [] })).toEqual(['?/no-snat']);
  });

  test('GIVEN an L4 SNAT measurement WHEN the output claims tcp-source THEN the mismatch is named per claim', () => {
    const result = summarizeProbe([ok('10.0.1.23')], { ...ctx, expectedPreserved: true, expectedVia: 'tcp-source', expectedSourceNat: false });
    expect(result.client_ip.as_expected).toBe(false);
    expect(result.client_ip.claims).toEqual({
      client_ip_via: { claimed: 'tcp-source', measured: 'none', matches: false },
      source_nat: { claimed: false, measured: true, matches: false },
      client_ip_preserved: { claimed: true, measured: false, matches: false },
    });
  });

  test('GIVEN an unknown prober address THEN a proxied reply cannot be judged', () => {
    const result = summarizeProbe([ok('10.0.230.5', { forwardedFor: '203.0.113.7' })], { ...ctx, proberAddress: null, expectedPreserved: true });
    expect(result.client_ip).toMatchObject({ preserved: null, as_expected: null, prober_address: null });
    expect(result.client_ip.summary).toContain('pass --my-ip');
  });

  test('the prober address: loopback for loopback URLs, else --my-ip, else unknown', () => {
    expect(proberAddressFor(new URL('http://127.0.0.1:8080/'), undefined)).toBe('127.0.0.1');
    expect(proberAddressFor(new URL('http://[::1]:8080/'), undefined)).toBe('::1');
    expect(proberAddressFor(new URL('http://lb.example.com/'), '198.51.100.4')).toBe('198.51.100.4');
    expect(proberAddressFor(new URL('http://lb.example.com/'), undefined)).toBeNull();
  });
});
