/**
 * The watch engine with a fake clock and fake requests: pacing and the rate
 * bound, the sliding window, the change events, the end on abort. (The
 * command against real loopback servers: test/commands/watch.)
 */
import { pacedRate, WatchFrame, watchTargets } from '../../../lib/commands/watch/watch';
import { FakeClock } from '../../support/fake-clock';
import { Fake, fakeSend, fakeTarget as target } from '../../support/fake-exposure';

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

  test('GIVEN 4 exposures at 5 req/s WHEN watched THEN they take turns across each 200 ms gap, and the pacing says every request went out on time', async () => {
    const { clock, targets, send } = setup(4);
    const firstAt = new Map<string, number>();
    const timed = (url: URL, timeoutMs: number, stop: AbortSignal) => {
      if (!firstAt.has(url.href)) firstAt.set(url.href, clock.now());
      return send(url, timeoutMs, stop);
    };
    const result = await watchTargets(targets, { ...BASE, rate: 5, durationMs: 2000, clock, send: timed });
    expect(targets.map((t) => firstAt.get((t.url as URL).href))).toEqual([0, 50, 100, 150]);
    expect(result.pacing).toEqual({ due: 40, sent: 40, within_50ms: 40, late_p50_ms: 0, late_p99_ms: 0, late_max_ms: 0 });
  });

  test('GIVEN a clock whose sleeps wake 70 ms late WHEN watched THEN the pacing counts those requests as late', async () => {
    const { clock, targets, send } = setup(1);
    const late = { now: () => clock.now(), sleep: (ms: number, signal: AbortSignal) => clock.sleep(ms > 0 ? ms + 70 : 0, signal) };
    const result = await watchTargets(targets, { ...BASE, rate: 5, durationMs: 3000, clock: late, send });
    expect(result.pacing.within_50ms).toBe(1);
    expect(result.pacing.late_max_ms).toBe(70);
    expect(result.pacing.sent).toBeGreaterThan(1);
  });

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
