/**
 * verify's parts that need no cloud: reading a `terraform show -json` plan
 * into resources and differing attributes, and the bounded readiness wait.
 */
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { changedResources, differingAttributes } from '../../../lib/commands/verify/drift';
import { waitReady } from '../../../lib/commands/verify/readiness';
import { driftSummary } from '../../../lib/commands/verify/verify-report';
import { deadUrl } from '../../support/echo-servers';

describe('drift from a plan', () => {
  test('GIVEN a plan where GKE wrote an annotation back and a Service is replaced WHEN read THEN each resource lists its differing attributes; no-ops and reads are left out', () => {
    const plan = {
      resource_changes: [
        { address: 'google_compute_network.net', change: { actions: ['no-op'], before: { name: 'a' }, after: { name: 'a' } } },
        { address: 'data.google_client_config.c', change: { actions: ['read'] } },
        {
          address: 'kubernetes_ingress_v1.native',
          change: {
            actions: ['update'],
            before: { metadata: [{ annotations: { 'ingress.gcp.kubernetes.io/pre-shared-cert': '' } }], spec: [{ x: 1 }], wait_for_load_balancer: true },
            after: { metadata: [{ annotations: {} }], spec: [{ x: 1 }], wait_for_load_balancer: true },
            after_unknown: {},
          },
        },
        {
          address: 'kubernetes_service_v1.l4',
          change: { actions: ['delete', 'create'], before: { spec: [{ type: 'LoadBalancer' }], id: 'x' }, after: { spec: [{ type: 'LoadBalancer' }] }, after_unknown: { id: true } },
        },
      ],
      resource_drift: [
        { address: 'aws_vpc.vpc', change: { actions: ['update'], before: { tags_all: { a: '1' } }, after: { tags_all: { a: '2' } } } },
        // Changed outside Terraform, but nothing in the plan depends on it: not listed.
        { address: 'aws_route_table.rt', change: { actions: ['update'], before: { route: [] }, after: { route: [{ gateway_id: 'igw-1' }] } } },
      ],
      relevant_attributes: [{ resource: 'aws_vpc.vpc', attribute: ['tags_all', 'a'] }],
    };
    expect(changedResources(plan)).toEqual({
      resources: [
        { address: 'kubernetes_ingress_v1.native', actions: 'update', attributes: ['metadata'] },
        { address: 'kubernetes_service_v1.l4', actions: 'delete,create', attributes: ['id'] },
      ],
      outside: [{ address: 'aws_vpc.vpc', actions: 'update', attributes: ['tags_all'] }],
      outputs: [],
    });
  });

  test('GIVEN an attribute that becomes unknown inside a block WHEN compared THEN it counts as differing', () => {
    expect(differingAttributes({ before: { status: [{ lb: 'a' }] }, after: { status: null }, after_unknown: { status: [{ lb: true }] } })).toEqual(['status']);
  });
});

describe('readiness', () => {
  test('GIVEN a load balancer that answers 503 twice then 200 WHEN waited for THEN it is ready, each attempt told to onAttempt and the outcome in one progress line', async () => {
    let n = 0;
    const server: Server = createServer((_req, res) => {
      n += 1;
      res.writeHead(n <= 2 ? 503 : 200);
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const lines: string[] = [];
    const attempts: { attempts: number; last: string; elapsedMs: number }[] = [];
    try {
      // A bound that three loopback answers never reach, however busy the machine: the test is about the attempts.
      const ready = await waitReady('lab aws native', url, { waitMs: 60_000, intervalMs: 50, progress: (l) => lines.push(l), onAttempt: (a) => attempts.push(a) });
      expect(ready).toMatchObject({ label: 'lab aws native', url, ready: true, attempts: 3, last: 'HTTP 200' });
      expect(attempts.map((a) => [a.attempts, a.last])).toEqual([
        [1, 'HTTP 503'],
        [2, 'HTTP 503'],
      ]);
      expect(attempts[1].elapsedMs).toBeGreaterThanOrEqual(attempts[0].elapsedMs);
      // Progress off a terminal is verify's live display's job (a line a minute at most), not one line per attempt.
      expect(lines).toEqual([expect.stringMatching(/^ready: lab aws native answered HTTP 200 after [\d.]+ s$/)]);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  test('GIVEN a load balancer that never answers WHEN waited for THEN it gives up at the bound and says why; no URL is not ready at once', async () => {
    const url = await deadUrl();
    const options = { waitMs: 600, intervalMs: 200, requestTimeoutMs: 5000 };
    const started = Date.now();
    const dead = await waitReady('lab gcp nodeport', url, options);
    // It stops trying once another interval would pass the bound: never more attempts than fit in it, and no longer
    // than the bound plus the one attempt in flight (each bounded by its request timeout; a refused one is immediate).
    expect(dead.attempts).toBeLessThanOrEqual(options.waitMs / options.intervalMs + 1);
    expect(Date.now() - started).toBeLessThan(options.waitMs + options.requestTimeoutMs);
    expect(dead).toMatchObject({ ready: false, last: 'ECONNREFUSED' });
    expect(await waitReady('lab gcp native', null, { waitMs: 600 })).toMatchObject({
      ready: false,
      attempts: 0,
      last: 'no URL in the output (not deployed, or the controller has not set the address yet)',
    });
  });
});

describe('drift in words', () => {
  const r = (address: string) => ({ address, actions: 'update', attributes: ['tags'] });
  test.each([
    [[r('a')], [], [], '1 resource would change'],
    [[r('a'), r('b')], ['url'], [r('a')], '2 resources would change; 1 output would change; 1 resource changed outside Terraform (refresh only)'],
    [[], ['url', 'id'], [r('a'), r('b')], '0 resources would change; 2 outputs would change; 2 resources changed outside Terraform (refresh only)'],
  ])('GIVEN %j would change WHEN summed up THEN each count has its noun in the right number', (resources, outputs, outside, text) => {
    expect(driftSummary({ stack: 's', status: 'drift', resources, outputs, outside_changes: outside, error: null, seconds: 1 })).toBe(text);
  });
});
