/**
 * verify waits for its exposures side by side, so the longest wait is one --wait however many
 * there are, and Ctrl-C (its own, or deploy's for the canary) stops it at once: no new plan, the
 * readiness waits and the probes end, and what did not run is left out, saying so (INCOMPLETE).
 * The waits run on a fake clock (test/support/fake-clock.ts): time jumps to the next wake-up, so a
 * --wait of an hour costs what its requests cost. Terraform is a stand-in with a clean plan; the
 * exposures are loopback servers that answer 503 (never ready), never answer, or refuse.
 */
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeTerraformOnPath } from '../../support/fake-terraform';
import { validConfig } from '../../../lib/config/load';
import { runVerify, VerifyOptions } from '../../../lib/commands/verify/verify';
import { renderVerify } from '../../../lib/commands/verify/verify-cli';
import { waitReady } from '../../../lib/commands/verify/readiness';
import { Limiter } from '../../../lib/lab/probe/limiter';
import { EXPOSURE_FACTS } from '../../../lib/model/exposure-facts';
import { deadUrl, echoBody, InFlightGauge, startControlledEchoServer } from '../../support/echo-servers';
import { FakeClock } from '../../support/fake-clock';

/** A loopback server that calls `handle` with each request and its number (1, 2, ...); `requests` counts them. */
async function serve(handle: (n: number, req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let n = 0;
  const server: Server = createServer((req, res) => {
    n += 1;
    handle(n, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests: () => n,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Never ready: every request answered 503 (a load balancer with no healthy target yet). */
const unavailable = (res: ServerResponse) => {
  res.writeHead(503);
  res.end('no healthy upstream\n');
};

const INTERRUPTED = 'interrupted (Ctrl-C or SIGTERM)';

describe('verify interrupted, and its exposures waited for side by side', () => {
  let dir: string;
  let restore: () => void;
  const closing: (() => Promise<void>)[] = [];
  beforeAll(() => {
    ({ dir, restore } = fakeTerraformOnPath('hoplab-verify-interrupted-'));
  });
  afterAll(() => restore());
  afterEach(async () => {
    await Promise.all(closing.splice(0).map((close) => close()));
  });

  /** An outputs file with these AWS exposures of `lab`, each at its URL. */
  const outputs = (name: string, urls: Partial<Record<'nodeport-l4' | 'nodeport-local' | 'native-l4', string>>) => {
    const file = join(dir, `${name}.json`);
    const exposures = Object.fromEntries(Object.entries(urls).map(([mode, url]) => [`exposure_${mode.replace(/-/g, '_')}`, { mode, cloud: 'aws', ...EXPOSURE_FACTS.aws[mode as 'native-l4'], url }]));
    writeFileSync(file, JSON.stringify({ 'lab-aws-lb': exposures }));
    return file;
  };

  /** verify in `dir` of a lab whose state is in S3 (so nothing local says whether it is deployed), both AWS stacks. */
  const verify = (options: Partial<VerifyOptions> & Pick<VerifyOptions, 'reportPath' | 'waitMs'>) =>
    runVerify({
      config: validConfig({ backend: { type: 's3', bucket: 'hoplab-state', region: 'us-east-1' } }, 'test'),
      kinds: ['aws-cluster', 'aws-lb'],
      cwd: dir,
      probe: { count: 4, concurrency: 2, timeoutMs: 10_000, myIp: '127.0.0.1' },
      progress: () => undefined,
      credentials: async () => ({}),
      ...options,
    });

  test('GIVEN exposures that never become ready and --wait 3600 WHEN Ctrl-C comes during the wait THEN verify stops at once: each exposure left out as interrupted, with what it had, and INCOMPLETE', async () => {
    const clock = new FakeClock();
    const abort = new AbortController();
    // Ctrl-C as the third attempt at this exposure is answered.
    const unready = await serve((n, _req, res) => {
      if (n === 3) abort.abort();
      unavailable(res);
    });
    // Accepts and never answers: its request is in flight when Ctrl-C comes.
    const hanging = await serve(() => undefined);
    closing.push(unready.close, hanging.close);
    const file = outputs('never-ready', { 'nodeport-l4': unready.url, 'nodeport-local': hanging.url, 'native-l4': await deadUrl() });
    const lines: string[] = [];

    const report = await verify({ reportPath: 'interrupted', outputsFile: file, waitMs: 3_600_000, waitClock: clock, signal: abort.signal, progress: (l) => lines.push(l) });

    // Stopped at once: no attempt after Ctrl-C, and nowhere near the hour a --wait of 3600 s allows.
    expect(unready.requests()).toBe(3);
    expect(clock.now()).toBeLessThan(3_600_000);
    // What ran is reported (the plans), what the interruption cut is left out: nothing judged ready or not.
    expect([report.drift.map((d) => d.status), report.readiness, report.claims, report.problems]).toEqual([['clean', 'clean'], [], [], []]);
    expect(report.left_out.map((l) => [l.check, l.what])).toEqual([
      ['ready', 'lab aws nodeport-l4'],
      ['claims', 'lab aws nodeport-l4'],
      ['ready', 'lab aws nodeport-local'],
      ['claims', 'lab aws nodeport-local'],
      ['ready', 'lab aws native-l4'],
      ['claims', 'lab aws native-l4'],
    ]);
    expect(report.left_out[0].why).toMatch(/^interrupted \(Ctrl-C or SIGTERM\) after [\d.]+ s of waiting \(3 attempts, last: HTTP 503\)$/);
    expect(report.left_out[1].why).toBe(`${INTERRUPTED} before its probe`);
    // Its request was in flight (or, on a machine busy for 5 s, had timed out).
    expect(report.left_out[2].why).toMatch(/^interrupted \(Ctrl-C or SIGTERM\) after [\d.]+ s of waiting \(\d+ attempts?, last: (no answer yet|no answer \(timeout\))\)$/);
    expect(report.left_out[4].why).toMatch(/^interrupted \(Ctrl-C or SIGTERM\) after [\d.]+ s of waiting \(\d+ attempts?, last: ECONNREFUSED\)$/);
    expect([report.verdict, report.ok]).toEqual(['incomplete', false]);
    expect(lines).toContain('ready: waiting for 3 exposures side by side, each up to 3600 s (--wait)');
    expect(lines).toContain(`left out: claims of lab aws nodeport-l4: ${INTERRUPTED} before its probe`);
    expect(lines.filter((l) => /NOT ready|answered/.test(l))).toEqual([]);
    const table = renderVerify(report, 'table').split('\n');
    expect(table[0]).toBe('hoplab verify: INCOMPLETE (lab)');
    expect(table).toContain(`  left out claims of lab aws native-l4: ${INTERRUPTED} before its probe`);
    expect(table).toContain(`  nothing that ran failed, but verify was ${INTERRUPTED} before 6 checks ran (see "Left out"); run it again for a verdict`);
  });

  test('GIVEN three exposures that never become ready WHEN verified with the default --wait THEN they are waited for side by side: one --wait in all, reported in their order', async () => {
    const clock = new FakeClock();
    const unready = await serve((_n, _req, res) => unavailable(res));
    closing.push(unready.close);
    const file = outputs('side-by-side', { 'nodeport-l4': await deadUrl(), 'nodeport-local': unready.url, 'native-l4': await deadUrl() });
    const lines: string[] = [];

    const report = await verify({ reportPath: 'side-by-side', outputsFile: file, waitMs: 300_000, waitClock: clock, progress: (l) => lines.push(l) });

    // Each waited the whole --wait (the last attempt comes within one interval of its end), all of them within one --wait:
    // one after another, they would take three.
    expect(report.readiness.map((r) => [r.label, r.ready])).toEqual([
      ['lab aws nodeport-l4', false],
      ['lab aws nodeport-local', false],
      ['lab aws native-l4', false],
    ]);
    for (const r of report.readiness) expect([r.seconds >= 295, r.seconds <= 300, r.attempts > 1]).toEqual([true, true, true]);
    expect(clock.now()).toBeLessThanOrEqual(300_000);
    // Polled again and again (every 5 s of the fake clock; fewer when the clock moved on while its request was in flight), then probed (4 requests).
    expect(unready.requests()).toBe(report.readiness[1].attempts + 4);
    expect(report.readiness[1].last).toBe('HTTP 503');
    expect(lines).toContain('ready: waiting for 3 exposures side by side, each up to 300 s (--wait)');
    expect(lines.filter((l) => l.startsWith('ready: lab aws ')).sort()).toEqual([
      expect.stringMatching(/^ready: lab aws native-l4 NOT ready after \d+(\.\d)? s \(\d+ attempts, last: ECONNREFUSED\)$/),
      expect.stringMatching(/^ready: lab aws nodeport-l4 NOT ready after \d+(\.\d)? s \(\d+ attempts, last: ECONNREFUSED\)$/),
      expect.stringMatching(/^ready: lab aws nodeport-local NOT ready after \d+(\.\d)? s \(\d+ attempts, last: HTTP 503\)$/),
    ]);
    expect(report.verdict).toBe('failed');
  });

  test('GIVEN an exposure that is ready WHEN Ctrl-C comes during its probe THEN the probe ends, and its claims are left out as interrupted, not NOT MEASURED', async () => {
    const abort = new AbortController();
    // The readiness request is answered; the probe's are held, and the first of them brings Ctrl-C.
    const exposure = await serve((n, req, res) => {
      if (n > 1) {
        abort.abort();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(echoBody({ pod: 'echo-a', node: 'ip-10-0-1-23.ec2.internal', podIp: '10.0.1.57', clientAddress: '127.0.0.1', host: req.headers.host ?? '' }));
    });
    closing.push(exposure.close);
    const file = outputs('probe-cut', { 'nodeport-local': exposure.url });

    const report = await verify({ reportPath: 'probe-cut', outputsFile: file, waitMs: 60_000, waitClock: new FakeClock(), signal: abort.signal });

    expect(report.readiness.map((r) => [r.label, r.ready])).toEqual([['lab aws nodeport-local', true]]);
    expect([report.claims, report.left_out]).toEqual([[], [{ check: 'claims', what: 'lab aws nodeport-local', why: `${INTERRUPTED} before its probe finished` }]]);
    expect(report.verdict).toBe('incomplete');
  });

  test('GIVEN Ctrl-C before verify starts WHEN verified THEN no plan runs, each is left out as interrupted with the exposures it would read, and INCOMPLETE', async () => {
    const abort = new AbortController();
    abort.abort();
    const report = await verify({ reportPath: 'before', waitMs: 300_000, signal: abort.signal });
    expect([report.drift, report.readiness, report.claims, report.problems]).toEqual([[], [], [], []]);
    expect(report.left_out).toEqual([
      { check: 'drift', what: 'lab-aws-cluster', why: `${INTERRUPTED} before its plan` },
      { check: 'drift', what: 'lab-aws-lb', why: `${INTERRUPTED} before its plan` },
      { check: 'ready', what: 'the exposures of lab-aws-lb', why: `${INTERRUPTED} before the plan of lab-aws-lb, which reads them` },
      { check: 'claims', what: 'the exposures of lab-aws-lb', why: `${INTERRUPTED} before the plan of lab-aws-lb, which reads them` },
    ]);
    expect(report.verdict).toBe('incomplete');
  });
});

describe('the readiness waits', () => {
  test('GIVEN four exposures waited for together with room for two requests at once WHEN none is ready THEN never more than two requests are in flight, and each is polled', async () => {
    const gauge = new InFlightGauge();
    const servers = await Promise.all(Array.from({ length: 4 }, () => startControlledEchoServer({ fail: 'http-503', delayMs: 20 }, gauge)));
    try {
      const clock = new FakeClock();
      const limiter = new Limiter(2);
      const results = await Promise.all(servers.map((s, i) => waitReady(`lab aws ${i}`, s.url, { waitMs: 20_000, clock, limiter })));
      expect(results.map((r) => [r.ready, r.last])).toEqual(Array.from({ length: 4 }, () => [false, 'HTTP 503']));
      expect(gauge.max).toBeLessThanOrEqual(2);
      for (const [i, s] of servers.entries()) expect([s.requests() > 1, s.requests()]).toEqual([true, results[i].attempts]);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  });
});
