/**
 * The watch engine with a fake clock and fake requests: pacing and the rate
 * bound, the sliding window, the change events, the end on abort. (The
 * command against real loopback servers: test/commands/watch.)
 */
import { Cloud } from '../../../lib/model/contract';
import { EXPOSURE_FACTS } from '../../../lib/model/exposure-facts';
import { parseEchoReply } from '../../../lib/lab/probe/echo-reply';
import { ProbeTarget } from '../../../lib/lab/probe/compare-model';
import { Sample } from '../../../lib/lab/probe/probe';
import { changesBetween, ExposureSnapshot, pacedRate, WatchFrame, watchTargets } from '../../../lib/commands/watch/watch';
import { echoBody } from '../../support/echo-servers';
import { FakeClock } from '../../support/fake-clock';

/** What a fake exposure answers now; tests change it while the watch runs. */
interface Fake {
  latencyMs: number;
  fail: string | null;
  snat: boolean;
  pods: readonly string[];
}

const POD_NODES: Record<string, string> = { 'echo-a': 'ip-10-0-1-23.ec2.internal', 'echo-b': 'ip-10-0-33-41.ec2.internal', 'echo-c': 'ip-10-0-2-200.ec2.internal' };

function target(mode: 'nodeport-local' | 'nodeport-l4', n: number, url: string | null = `http://203.0.113.${n}/`): ProbeTarget {
  const exposure = { mode, cloud: 'aws' as Cloud, url, ...EXPOSURE_FACTS.aws[mode]! } as unknown as ProbeTarget['exposure'];
  return { env: `env${n}`, cloud: 'aws', mode, label: `env${n} aws ${mode}`, exposure, url: url === null ? 'no URL in the output (not deployed yet?)' : new URL(url), nodeRanges: [] };
}

function fakeSend(clock: FakeClock, fakes: Map<string, Fake>, sent: string[]) {
  const turn = new Map<string, number>();
  return async (url: URL, _timeoutMs: number, stop: AbortSignal): Promise<Sample> => {
    sent.push(url.href);
    const fake = fakes.get(url.href)!;
    const started = clock.now();
    await clock.sleep(fake.latencyMs, stop);
    if (stop.aborted) return { ok: false, ms: clock.now() - started, error: 'stopped' };
    if (fake.fail) return { ok: false, ms: clock.now() - started, error: fake.fail };
    const n = turn.get(url.href) ?? 0;
    turn.set(url.href, n + 1);
    const pod = fake.pods[n % fake.pods.length];
    const node = POD_NODES[pod];
    // The prober is 203.0.113.99 (--my-ip); with SNAT the Pod sees its node's address.
    const clientAddress = fake.snat ? node.replace(/^ip-(\d+)-(\d+)-(\d+)-(\d+).*$/, '$1.$2.$3.$4') : '203.0.113.99';
    const reply = parseEchoReply(echoBody({ pod, node, podIp: '10.0.9.9', clientAddress, host: url.host }));
    return { ok: true, ms: clock.now() - started, status: 200, reply };
  };
}

function setup(count: number) {
  const clock = new FakeClock();
  const targets = Array.from({ length: count }, (_, i) => target('nodeport-local', i + 1));
  const fakes = new Map<string, Fake>(targets.map((t) => [(t.url as URL).href, { latencyMs: 20, fail: null, snat: false, pods: ['echo-a', 'echo-b'] }]));
  const sent: string[] = [];
  return { clock, targets, fakes, sent, send: fakeSend(clock, fakes, sent) };
}

const BASE = { maxRate: 1000, intervalMs: 1000, windowMs: 3000, timeoutMs: 2000, myIp: '203.0.113.99' };

describe('watch pacing', () => {
  test.each([
    { rate: 5, maxRate: 1000, exposures: 3, durationMs: 10_000, perExposure: 50, frames: 10 },
    { rate: 10, maxRate: 12, exposures: 4, durationMs: 5_000, perExposure: 15, frames: 5 },
    { rate: 1, maxRate: 1000, exposures: 1, durationMs: 2_500, perExposure: 3, frames: 3 },
  ])(
    'GIVEN $exposures exposures at $rate req/s (at most $maxRate in all) for $durationMs ms WHEN watched THEN each sends $perExposure requests, never more than rate x duration + 1',
    async ({ rate, maxRate, exposures, durationMs, perExposure, frames }) => {
      const { clock, targets, sent, send } = setup(exposures);
      const result = await watchTargets(targets, { ...BASE, rate, maxRate, durationMs, clock, send });
      const paced = pacedRate(rate, maxRate, exposures);
      for (const e of result.exposures) {
        expect(e.sent).toBe(perExposure);
        expect(e.sent).toBeLessThanOrEqual(Math.floor((paced * durationMs) / 1000) + 1);
      }
      expect(sent).toHaveLength(perExposure * exposures);
      expect(result.frames).toBe(frames);
      expect(result.stopped).toBe(false);
    },
  );

  test('GIVEN an endpoint slower than the deadline WHEN watched THEN it skips its turns rather than pile requests up', async () => {
    const { clock, targets, fakes, send } = setup(1);
    fakes.get((targets[0].url as URL).href)!.latencyMs = 60_000;
    const stop = new AbortController();
    const result = await watchTargets(targets, { ...BASE, rate: 10, timeoutMs: 500, durationMs: 0, clock, send, signal: stop.signal, onFrame: (f) => (f.index === 3 ? stop.abort() : undefined) });
    // At 10 req/s with a 500 ms deadline, 5 in flight at most; the fake never answers in time. Turns are due at
    // 0, 100, ..., 2900 ms (30); the one due at 3000 ms finds the watch stopped.
    expect(result.exposures[0].sent).toBe(5);
    expect(result.exposures[0].skipped).toBe(25);
  });
});

describe('watch on a timer that fires early', () => {
  test('GIVEN sleeps that wake 1 ms before their time (a Node timer on a busy machine) WHEN watched THEN every interval and request still waits for its time, and the frames are labelled 1 s, 2 s, 3 s', async () => {
    const { clock, targets, send } = setup(1);
    const early = { now: () => clock.now(), sleep: (ms: number, signal: AbortSignal) => clock.sleep(ms > 1 ? ms - 1 : ms, signal) };
    const frames: WatchFrame[] = [];
    const result = await watchTargets(targets, { ...BASE, rate: 4, durationMs: 3000, clock: early, send, onFrame: (f) => void frames.push(f) });
    expect(frames.map((f) => f.t_ms)).toEqual([1000, 2000, 3000]);
    expect(result.exposures[0].sent).toBe(12);
  });
});

describe('watch snapshots and changes', () => {
  test('GIVEN a steady exposure WHEN watched THEN each snapshot has its rate, latency, Pods, nodes and verdict', async () => {
    const { clock, targets, send } = setup(1);
    const frames: WatchFrame[] = [];
    await watchTargets(targets, { ...BASE, rate: 4, durationMs: 3000, clock, send, onFrame: (f) => void frames.push(f) });
    const s = frames[1].exposures[0];
    expect(frames.map((f) => f.t_ms)).toEqual([1000, 2000, 3000]);
    expect(frames.map((f) => f.final)).toEqual([false, false, true]);
    expect(s.rps).toBe(4);
    expect(s.p50_ms).toBe(20);
    expect(s.pods).toEqual({ 'echo-a': 4, 'echo-b': 4 });
    expect(Object.keys(s.nodes)).toEqual(['ip-10-0-1-23.ec2.internal', 'ip-10-0-33-41.ec2.internal']);
    expect(s.client_ip_via).toBe('tcp-source');
    expect(s.source_nat).toBe(false);
    expect(s.as_expected).toBe(true);
    expect(frames.flatMap((f) => f.events)).toEqual([]);
  });

  test('GIVEN an exposure that fails and recovers, flips SNAT on and gains a Pod WHEN watched THEN each change is an event when it happens', async () => {
    const { clock, targets, fakes, send } = setup(1);
    const fake = fakes.get((targets[0].url as URL).href)!;
    const script: Record<number, () => void> = {
      2: () => (fake.fail = 'HTTP 503'),
      5: () => (fake.fail = null),
      8: () => (fake.snat = true),
      11: () => (fake.pods = ['echo-a', 'echo-b', 'echo-c']),
    };
    const frames: WatchFrame[] = [];
    await watchTargets(targets, {
      ...BASE,
      rate: 5,
      windowMs: 1000,
      durationMs: 14_000,
      clock,
      send,
      onFrame: (f) => {
        frames.push(f);
        script[f.index]?.();
      },
    });
    const events = frames.flatMap((f) => f.events.map((e) => `${f.index} ${e.kind}: ${e.text}`));
    expect(events).toEqual([
      '3 errors-started: errors started: HTTP 503',
      '6 errors-stopped: errors stopped',
      '9 verdict-changed: client IP tcp-source/no-snat -> none/snat',
      '12 pod-appeared: Pod echo-c answers',
      '12 node-appeared: node ip-10-0-2-200.ec2.internal answers',
    ]);
    expect(frames[2].exposures[0].changes).toEqual(['errors started: HTTP 503']);
    expect(frames[8].exposures[0].as_expected).toBe(false);
  });

  test('GIVEN an exposure without a URL among others WHEN watched THEN it is shown as not probed and the others are probed', async () => {
    const { clock, targets, send, sent } = setup(1);
    const result = await watchTargets([target('nodeport-l4', 9, null), ...targets], { ...BASE, rate: 2, durationMs: 2000, clock, send });
    expect(result.last!.exposures[0].not_probed_because).toBe('no URL in the output (not deployed yet?)');
    expect(result.exposures[0].sent).toBe(0);
    expect(sent).toHaveLength(4);
  });

  test('GIVEN an abort mid-run (Ctrl-C) WHEN watched THEN it ends at once with a final snapshot, requests in flight not counted', async () => {
    const { clock, targets, fakes, send } = setup(2);
    fakes.get((targets[1].url as URL).href)!.latencyMs = 1500;
    const stop = new AbortController();
    const result = await watchTargets(targets, { ...BASE, rate: 2, durationMs: 0, clock, send, signal: stop.signal, onFrame: (f) => (f.index === 3 ? stop.abort() : undefined) });
    expect(result.stopped).toBe(true);
    expect(result.frames).toBe(4);
    expect(result.last!.final).toBe(true);
    expect(result.duration_ms).toBe(3000);
    // The slow one: requests sent at 0, 500, ..., 3000 ms; those still in flight at 3000 ms were cut off.
    expect(result.exposures[1].ok + result.exposures[1].failed).toBeLessThan(result.exposures[1].sent);
  });
});

describe('changesBetween', () => {
  const snap = (over: Partial<ExposureSnapshot>): ExposureSnapshot => ({
    env: 'ann',
    cloud: 'aws',
    mode: 'native',
    label: 'ann aws native',
    not_probed_because: null,
    sent_total: 10,
    rps: 5,
    window_requests: 5,
    ok: 5,
    errors: {},
    p50_ms: 3,
    p99_ms: 5,
    pods: { a: 3, b: 2 },
    nodes: { n1: 5 },
    client_ip_via: 'x-forwarded-for',
    source_nat: false,
    as_expected: true,
    changes: [],
    ...over,
  });

  test('GIVEN no previous snapshot WHEN compared THEN nothing changed', () => {
    expect(changesBetween(undefined, snap({}), 0)).toEqual([]);
  });

  test('GIVEN an outage WHEN compared THEN errors started and the Pods are not reported gone', () => {
    expect(changesBetween(snap({}), snap({ ok: 0, errors: { 'connection refused': 5 }, pods: {}, nodes: {}, client_ip_via: null }), 7).map((e) => e.kind)).toEqual(['errors-started']);
  });

  test('GIVEN a Pod gone from the window WHEN compared THEN it is an event', () => {
    expect(changesBetween(snap({}), snap({ pods: { a: 5 } }), 7)).toEqual([{ t_ms: 7, label: 'ann aws native', kind: 'pod-gone', text: 'Pod b no longer answers' }]);
  });
});
