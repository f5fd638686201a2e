/**
 * verify shows that it is alive while it probes: each exposure's probe is a
 * live task with its requests done and failed, redrawn in place on a terminal
 * (exact frames through a fake TTY), one line a minute at most off it.
 */
import { LiveStatus } from '../../../lib/kit/terminal/live-status';
import { liveProbeProgress } from '../../../lib/commands/verify/verify';
import { FakeClock, FakeStream } from '../../support/fake-terminal';

const BOLD = (s: string) => `\x1b[1m${s}\x1b[0m`;
const UP = (n: number) => `\r\x1b[${n}A\x1b[J`;

describe("verify's probe progress", () => {
  test('GIVEN a probe of 10 requests off a terminal WHEN it runs for a minute THEN one line says how far it is, and the end is one line', () => {
    const clock = new FakeClock();
    const lines: string[] = [];
    const live = new LiveStatus({ stream: new FakeStream(false), title: 'verify', clock, write: (l) => lines.push(l), env: {} });
    const progress = liveProbeProgress(live);
    progress.start('lab aws native', 10);
    [true, true, false, true].forEach((ok) => progress.tick('lab aws native', ok));
    clock.advance(59_000);
    expect(lines).toEqual([]);
    clock.advance(1000);
    expect(lines).toEqual(['  ... probe lab aws native: probing 1m00s, 4/10 requests, 1 failed']);
    progress.done('lab aws native', '10/10 answered');
    expect(lines.slice(1)).toEqual(['probe: lab aws native: 10/10 answered']);
    expect(clock.activeTimers).toBe(0);
  });

  test('GIVEN an 80-column terminal WHEN a probe starts and requests finish THEN the block is redrawn in place with the counts, exactly', () => {
    const clock = new FakeClock();
    const stream = new FakeStream(true, 80);
    const live = new LiveStatus({ stream, title: 'verify', clock, env: {} });
    const progress = liveProbeProgress(live);
    progress.start('lab aws native', 10);
    expect(stream.writes).toEqual([`${BOLD('verify: 1 running (0s so far)')}\n  probe lab aws native  probing     0s  0/10 requests\n`]);
    [true, false, true].forEach((ok) => progress.tick('lab aws native', ok));
    stream.writes.length = 0;
    clock.advance(1000);
    expect(stream.writes).toEqual([`${UP(2)}${BOLD('verify: 1 running (1s so far)')}\n  probe lab aws native  probing     1s  3/10 requests, 1 failed\n`]);
    progress.done('lab aws native', '10/10 answered');
    live.stop();
    expect(stream.text).toContain('probe: lab aws native: 10/10 answered\n');
    expect(clock.activeTimers).toBe(0);
  });

  test('GIVEN two exposures probed at the same time WHEN their requests finish interleaved THEN each task counts its own', () => {
    const clock = new FakeClock();
    const stream = new FakeStream(true, 80);
    const live = new LiveStatus({ stream, title: 'verify', clock, env: {} });
    const progress = liveProbeProgress(live);
    progress.start('lab aws native', 4);
    progress.start('lab gcp native', 6);
    progress.tick('lab aws native', true);
    progress.tick('lab gcp native', false);
    progress.tick('lab gcp native', true);
    stream.writes.length = 0;
    clock.advance(1000);
    expect(stream.writes.join('')).toContain('  probe lab aws native  probing     1s  1/4 requests\n');
    expect(stream.writes.join('')).toContain('  probe lab gcp native  probing     1s  2/6 requests, 1 failed\n');
    progress.done('lab aws native', '4/4 answered');
    progress.done('lab gcp native', '6/6 answered');
    live.stop();
    expect(clock.activeTimers).toBe(0);
  });
});
