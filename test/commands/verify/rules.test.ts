/**
 * Each rule of verify's three checks on its own, with the cases that slipped
 * through the end-to-end tests: drift (what an apply would change; the
 * refresh-only differences the plan depends on; a nested unknown), claims
 * (mixed TCP peers; an output claiming only one of source_nat/client_ip_via)
 * and readiness (a redirect is an answer).
 */
import { readFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { changedResources, differingAttributes, PlanJson } from '../../../lib/commands/verify/drift';
import { checkClaims, ClaimCheck, ExposureClaims, measuredFacts } from '../../../lib/commands/verify/claims';
import { isReadyStatus, waitReady } from '../../../lib/commands/verify/readiness';
import { CompareCell } from '../../../lib/lab/probe/compare-model';
import { ProbeResult } from '../../../lib/lab/probe/probe-summary';
import { fixture } from '../../support/fixtures';

describe('drift: what an apply would change, and what changed outside Terraform that matters', () => {
  /**
   * `terraform show -json` (Terraform 1.11.4, trimmed to the parts drift reads) of the emulator's plan after one tag was
   * added to the VPC outside Terraform (test/emulator/preflight-verify-emulator.test.ts): one resource to update;
   * resource_drift lists 14, the VPC and the differences nothing depends on (tags from null to {}, route tables'
   * routes filled by aws_route, roles' managed_policy_arns filled by attachments, the EIP's association); no
   * relevant_attributes.
   */
  const emulatorPlan = JSON.parse(readFileSync(fixture('verify', 'emulator-vpc-tag-plan.json'), 'utf8')) as PlanJson;

  test('GIVEN the emulator plan after one tag changed outside Terraform WHEN read THEN exactly that resource is drift, and no refresh-only difference is listed', () => {
    expect(emulatorPlan.resource_drift).toHaveLength(14);
    expect(emulatorPlan.relevant_attributes).toBeUndefined();
    expect(changedResources(emulatorPlan)).toEqual({
      resources: [{ address: 'aws_vpc.vpc_6776A399', actions: 'update', attributes: ['tags', 'tags_all'] }],
      outside: [],
      outputs: [],
    });
  });

  /** The same change, with a plan that depends on the VPC's tags (relevant_attributes names them). */
  const plan: PlanJson = {
    resource_changes: [
      {
        address: 'aws_vpc.vpc_6776A399',
        change: {
          actions: ['update'],
          before: { cidr_block: '10.0.0.0/16', tags: { a: '1', 'hoplab-owner': 'someone-else' }, tags_all: { a: '1', 'hoplab-owner': 'someone-else' } },
          after: { cidr_block: '10.0.0.0/16', tags: { a: '1' }, tags_all: { a: '1' } },
          after_unknown: {},
        },
      },
      { address: 'aws_route_table.private', change: { actions: ['no-op'], before: { route: [] }, after: { route: [] } } },
      { address: 'data.aws_iam_policy_document.trust', change: { actions: ['read'] } },
    ],
    resource_drift: [
      {
        address: 'aws_vpc.vpc_6776A399',
        change: {
          actions: ['update'],
          before: { tags: { a: '1' }, tags_all: { a: '1' } },
          after: { tags: { a: '1', 'hoplab-owner': 'someone-else' }, tags_all: { a: '1', 'hoplab-owner': 'someone-else' } },
        },
      },
      { address: 'aws_route_table.private', change: { actions: ['update'], before: { route: [] }, after: { route: [{ nat_gateway_id: 'nat-1' }] } } },
      { address: 'aws_iam_role.nodes', change: { actions: ['update'], before: { managed_policy_arns: [] }, after: { managed_policy_arns: ['arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy'] } } },
      { address: 'aws_eip.nat', change: { actions: ['update'], before: { association_id: '' }, after: { association_id: 'eipassoc-1' } } },
      { address: 'aws_subnet.a', change: { actions: ['update'], before: { tags: null }, after: { tags: {} } } },
    ],
    relevant_attributes: [
      { resource: 'aws_vpc.vpc_6776A399', attribute: ['tags'] },
      { resource: 'aws_vpc.vpc_6776A399', attribute: ['tags_all'] },
    ],
    output_changes: { vpc_id: { actions: ['no-op'] } },
  };

  test('GIVEN one tag changed outside Terraform that the plan depends on WHEN read THEN exactly that resource is drift, and exactly it is listed as changed outside Terraform', () => {
    expect(changedResources(plan)).toEqual({
      resources: [{ address: 'aws_vpc.vpc_6776A399', actions: 'update', attributes: ['tags', 'tags_all'] }],
      outside: [{ address: 'aws_vpc.vpc_6776A399', actions: 'update', attributes: ['tags', 'tags_all'] }],
      outputs: [],
    });
  });

  test('GIVEN relevant_attributes naming a whole resource (an empty path) WHEN read THEN each of its differing attributes is named', () => {
    const whole: PlanJson = {
      resource_drift: [{ address: 'aws_eip.nat', change: { actions: ['update'], before: { association_id: '', tags: null }, after: { association_id: 'eipassoc-1', tags: null } } }],
      relevant_attributes: [{ resource: 'aws_eip.nat', attribute: [] }],
    };
    expect(changedResources(whole).outside).toEqual([{ address: 'aws_eip.nat', actions: 'update', attributes: ['association_id'] }]);
  });

  test('GIVEN a relevant resource that also differs outside in an attribute nothing depends on WHEN read THEN only the relevant attributes are named', () => {
    const mixed: PlanJson = {
      resource_drift: [{ address: 'aws_vpc.v', change: { actions: ['update'], before: { tags: null, enable_dns_support: true }, after: { tags: {}, enable_dns_support: false } } }],
      relevant_attributes: [{ resource: 'aws_vpc.v', attribute: ['enable_dns_support'] }],
    };
    expect(changedResources(mixed).outside).toEqual([{ address: 'aws_vpc.v', actions: 'update', attributes: ['enable_dns_support'] }]);
  });

  test('GIVEN an output an apply would change WHEN read THEN it is named', () => {
    expect(changedResources({ output_changes: { a: { actions: ['no-op'] }, url: { actions: ['update'] } } }).outputs).toEqual(['url']);
  });

  test('GIVEN an attribute whose value is equal but whose after_unknown marks a nested value unknown WHEN compared THEN it differs', () => {
    const spec = [{ port: [{ node_port: 30080, port: 80 }] }];
    expect(differingAttributes({ before: { spec, name: 'x' }, after: { spec, name: 'x' }, after_unknown: { spec: [{ port: [{ node_port: true }] }] } })).toEqual(['spec']);
    expect(differingAttributes({ before: { spec, name: 'x' }, after: { spec, name: 'x' }, after_unknown: { spec: [{ port: [{ node_port: false }] }] } })).toEqual([]);
    // Unknown in an attribute that before and after both leave out (an id on create).
    expect(differingAttributes({ before: null, after: { name: 'x' }, after_unknown: { id: true } })).toEqual(['id', 'name']);
  });
});

/** A probe of `ok` replies whose Pods saw these kinds of TCP peer, with X-Forwarded-For naming the prober in `xff` of them. */
function probe(kinds: ProbeResult['client_ip']['peer_kinds'], xff: number, preserved: boolean | null = null): ProbeResult {
  const ok = Object.values(kinds).reduce((a, b) => a + (b ?? 0), 0);
  return {
    url: 'http://lb.example/',
    planned: ok,
    sent: ok,
    ok,
    errors: {},
    gave_up: false,
    latency_ms: null,
    pods: {},
    nodes: {},
    client_ip: { prober_address: '198.51.100.7', peer_kinds: kinds, forwarded_for_names_prober: xff, preserved, summary: 'measured' } as ProbeResult['client_ip'],
    source_node: {} as ProbeResult['source_node'],
  };
}
const cell = (p: ProbeResult): CompareCell => ({ exposure: { url: p.url } as CompareCell['exposure'], probe: p, not_probed_because: null });
const facts = (check: ClaimCheck) => check.facts.map((f) => `${f.fact}: ${String(f.claimed)} / ${String(f.measured)}`);

describe('claims: what the probe measured against what the output claims', () => {
  /** What an exposure's output claims (as outputs.ts reads it): what it does not say is null. */
  const claimsOf = (claims: Partial<ExposureClaims>): ExposureClaims => ({ source_nat: null, client_ip_via: null, client_ip_preserved: null, ...claims });
  test.each([
    ['every reply from the prober', { prober: 6 }, 0, { source_nat: false, client_ip_via: 'tcp-source' }],
    ['every reply from a node, the header naming the prober', { node: 6 }, 6, { source_nat: true, client_ip_via: 'x-forwarded-for' }],
    ['every reply from a node, no header', { node: 6 }, 0, { source_nat: true, client_ip_via: 'none' }],
    ['some replies from the prober, some from a node (mixed)', { prober: 3, node: 3 }, 0, { source_nat: true, client_ip_via: 'none' }],
    ['mostly the prober, one reply from a node', { prober: 5, node: 1 }, 0, { source_nat: true, client_ip_via: 'none' }],
    ['Google Front End peers naming the prober', { 'google-front-end': 6 }, 6, { source_nat: false, client_ip_via: 'x-forwarded-for' }],
  ] as const)('GIVEN %s WHEN measured THEN the facts are exact (mixed peers are never tcp-source)', (_what, kinds, xff, expected) => {
    expect(measuredFacts(probe(kinds, xff))).toEqual(expected);
  });

  test('GIVEN mixed TCP peers and an output claiming tcp-source without SNAT WHEN checked THEN it is a contradiction, not a match', () => {
    const check = checkClaims('lab', 'aws', 'nodeport-local', cell(probe({ prober: 3, node: 3 }, 0)), claimsOf({ source_nat: false, client_ip_via: 'tcp-source' }));
    expect(check.status).toBe('contradiction');
    expect(facts(check)).toEqual(['source_nat: false / true', 'client_ip_via: tcp-source / none']);
  });

  test.each([
    [
      'only source_nat',
      { source_nat: false, client_ip_preserved: true } as const,
      ['source_nat: false / false', 'client_ip_via: null / tcp-source'],
      'client_ip_via not claimed by the output (measured)',
    ],
    [
      'only client_ip_via',
      { client_ip_via: 'tcp-source', client_ip_preserved: true } as const,
      ['source_nat: null / false', 'client_ip_via: tcp-source / tcp-source'],
      'source_nat not claimed by the output (measured)',
    ],
  ])('GIVEN an output claiming %s (and client_ip_preserved) WHEN checked THEN the other is "not claimed", never read from client_ip_preserved', (_what, raw, expectedFacts, reason) => {
    const check = checkClaims('lab', 'aws', 'nodeport-local', cell(probe({ prober: 6 }, 0, true)), claimsOf(raw));
    expect(facts(check)).toEqual(expectedFacts);
    expect(check.facts.map((f) => f.fact)).not.toContain('client_ip_preserved');
    expect([check.status, check.reason]).toEqual(['not-measured', reason]);
  });

  test('GIVEN an output with neither source_nat nor client_ip_via WHEN checked THEN client_ip_preserved, and only it, is compared', () => {
    const check = checkClaims('lab', 'aws', 'nodeport-l4', cell(probe({ node: 6 }, 0, false)), claimsOf({ client_ip_preserved: false }));
    expect([check.status, ...facts(check)]).toEqual(['match', 'client_ip_preserved: false / false']);
  });
});

describe('readiness: a redirect is an answer', () => {
  test.each([
    [200, true],
    [204, true],
    [301, true],
    [302, true],
    [304, true],
    [308, true],
    [399, true],
    [400, false],
    [404, false],
    [502, false],
    [503, false],
    [199, false],
  ])('GIVEN HTTP %i WHEN judged THEN ready is %s', (status, ready) => {
    expect(isReadyStatus(status)).toBe(ready);
  });

  test('GIVEN a load balancer that answers 503, then 302 to a login page WHEN waited for THEN it is ready at the 302, which is not followed', async () => {
    let n = 0;
    const paths: string[] = [];
    const server: Server = createServer((req, res) => {
      n += 1;
      paths.push(req.url ?? '');
      res.writeHead(n === 1 ? 503 : 302, n === 1 ? {} : { location: '/login' });
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const attempts: string[] = [];
    const lines: string[] = [];
    try {
      const ready = await waitReady('lab aws native', url, { waitMs: 60_000, intervalMs: 20, progress: (l) => lines.push(l), onAttempt: (a) => attempts.push(`${a.attempts}: ${a.last}`) });
      expect(ready).toMatchObject({ ready: true, attempts: 2, last: 'HTTP 302' });
      expect(attempts).toEqual(['1: HTTP 503']);
      expect(lines).toEqual([expect.stringMatching(/^ready: lab aws native answered HTTP 302 after [\d.]+ s$/)]);
      expect(paths).toEqual(['/', '/']);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
