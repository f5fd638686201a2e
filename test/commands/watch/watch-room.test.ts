/**
 * `npm run watch` in-process on the fake clock against fake exposures
 * (test/support/fake-exposure.ts): a room of 30 attendees on an 80 x 40
 * terminal (--room), the --html chart of an outage that recovers, and which
 * stacks `npx cdktf output` is asked for under --env and --shard together
 * (for compare too). Nothing here waits on real time.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXPOSURE_FACTS } from '../../../lib/model/exposure-facts';
import { EXPOSURE_MODES } from '../../../lib/model/modes';
import { pacingNote, runWatch, WatchIo } from '../../../lib/commands/watch/watch-cli';
import { WatchResult } from '../../../lib/commands/watch/watch';
import { runCompare } from '../../../lib/commands/compare/compare-cli';
import { UsageError } from '../../../lib/kit/cli/cli';
import { stripAnsi } from '../../../lib/kit/terminal/terminal';
import { selectShard } from '../../../lib/lab/selection/shard';
import { FakeClock } from '../../support/fake-clock';
import { Fake, fakeSend, PROBER } from '../../support/fake-exposure';

const dir = mkdtempSync(join(tmpdir(), 'hoplab-watch-room-'));

/** Outputs of `count` attendees (named by `name`), each with every exposure of a default lab (AWS 6, GCP 5), each at a URL of its own; the fakes answer as each exposure's facts say. */
function room(
  count: number,
  name: (a: number) => string = (a) => `attendee-${String(a).padStart(2, '0')}`,
): { file: string; fakes: Map<string, Fake>; url: (env: string, cloud: 'aws' | 'gcp', mode: string) => string } {
  const outputs: Record<string, Record<string, unknown>> = {};
  const fakes = new Map<string, Fake>();
  const url = (env: string, cloud: string, mode: string) => `http://${env}.${cloud}.${mode}.example/`;
  for (let a = 1; a <= count; a += 1) {
    const env = name(a);
    for (const cloud of ['aws', 'gcp'] as const) {
      const lb: Record<string, unknown> = {};
      for (const mode of EXPOSURE_MODES) {
        const facts = EXPOSURE_FACTS[cloud][mode];
        if (!facts) continue;
        lb[`exposure_${mode.replace(/-/g, '_')}`] = { mode, cloud, ...facts, url: url(env, cloud, mode) };
        fakes.set(url(env, cloud, mode), { latencyMs: 40, fail: null, snat: facts.source_nat === true, proxy: facts.client_ip_via === 'x-forwarded-for', pods: ['echo-a', 'echo-b'] });
      }
      outputs[`${env}-${cloud}-lb`] = lb;
    }
  }
  const file = join(mkdtempSync(join(dir, 'room-')), 'outputs.json');
  writeFileSync(file, JSON.stringify(outputs));
  return { file, fakes, url };
}

interface Run {
  readonly code: number;
  readonly writes: string[];
  readonly err: string;
}

/** Runs watch on a fake clock; `script` runs beside it on the same clock (changes at known times). */
async function watchFake(argv: readonly string[], fakes: Map<string, Fake>, options: { tty?: { columns: number; rows: number }; script?: (clock: FakeClock) => Promise<void> } = {}): Promise<Run> {
  const clock = new FakeClock();
  const writes: string[] = [];
  let err = '';
  const io: WatchIo = {
    stdout: { write: (text: string) => writes.push(text), ...(options.tty ? { isTTY: true, ...options.tty } : {}) },
    err: (text) => (err += text),
    env: {},
    clock,
    send: fakeSend(clock, fakes),
  };
  const [code] = await Promise.all([runWatch(argv, io), options.script?.(clock)]);
  return { code, writes, err };
}

describe('watch --room', () => {
  let run: Run;
  // Names of the longest a config allows (20 characters), alike but for their last two.
  const alike = (a: number) => `london-team-alice-${String(a).padStart(2, '0')}`;
  const outage = alike(5);
  beforeAll(async () => {
    const { file, fakes, url } = room(30, alike);
    run = await watchFake(['--outputs', file, '--room', '--duration', '4', '--my-ip', PROBER], fakes, {
      tty: { columns: 80, rows: 40 },
      // At 2.5 s one attendee's AWS gateway starts failing.
      script: async (clock) => {
        await clock.sleep(2500);
        fakes.get(url(outage, 'aws', 'gateway'))!.fail = 'HTTP 503';
      },
    });
  }, 120_000);
  const frames = () => run.writes.filter((w) => w.includes('hoplab watch:')).map((w) => stripAnsi(w).replace(/^\r?(\x1b\[\d+A)?/, ''));

  test('GIVEN 30 attendees (330 exposures) on an 80 x 40 terminal WHEN watched with --room THEN every frame fits: at most 39 lines, none wider than 80', () => {
    expect(run.code).toBe(0);
    expect(frames().length).toBeGreaterThanOrEqual(4);
    for (const frame of frames()) {
      const lines = frame.replace(/\n$/, '').split('\n');
      expect(lines.length).toBeLessThanOrEqual(39);
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    }
  });

  test('GIVEN the room THEN one row per attendee, named whole, a cell per exposure, the legend and the column codes', () => {
    const last = frames().at(-1)!;
    expect(last).toContain('hoplab watch: 30 attendees, 330 exposures at 5 req/s; 4 s of 4 s; Ctrl-C ends it\n');
    expect(last).toMatch(/^ +aws +gcp$/m);
    expect(last).toMatch(/^attendee +nat gw +np +l4 +loc n4 +nat gw +np +l4 +loc$/m);
    const rows = last.split('\n').filter((l) => /^london-/.test(l));
    expect(rows.map((r) => r.split(' ')[0])).toEqual(Array.from({ length: 30 }, (_, i) => alike(i + 1)));
    for (const row of rows.filter((r) => !r.startsWith(outage))) expect(row).toMatch(/^london-team-alice-\d\d( +o){6}( +o){5}$/);
    expect(rows.find((r) => r.startsWith(outage))).toMatch(/^london-team-alice-05 +o +E( +o){4}( +o){5}$/);
    expect(last).toContain('o as claimed  E errors  M client-IP MISMATCH');
    expect(last).toContain('nat=native gw=gateway np=nodeport l4=nodeport-l4 loc=nodeport-local n4=native-l4');
  });

  test('GIVEN an attendee whose exposure starts failing THEN the changes list names the attendee', () => {
    expect(frames().at(-1)).toMatch(/\nchanges:\n {2}00:0[34] london-team-alice-05 aws gateway: errors started: HTTP 503\n/);
  });

  test.each([
    [['--room', '--format', 'json'], '--room and --format json contradict each other: --room is a view for a terminal (and --serve a page); give one of them'],
    [['--serve-public'], '--serve-public goes with --serve or --serve-address'],
    [['--serve-address', '0.0.0.0:8642'], expect.stringContaining('--serve-address 0.0.0.0:8642 is not a loopback address: anyone who can reach this machine there would see')],
    [['--serve-address', '8642'], '--serve-address: "8642" is not HOST:PORT (e.g. 127.0.0.1:8642, [::1]:8642, localhost:8642)'],
    [['--serve-address', 'projector.local:8642'], '--serve-address: "projector.local:8642": projector.local is not an IP address or localhost'],
  ])('GIVEN %j THEN a usage error before anything is probed: %s', async (argv, message) => {
    const { file, fakes } = room(1);
    const run = watchFake(['--outputs', file, ...argv], fakes);
    await expect(run).rejects.toThrow(UsageError);
    await expect(run).rejects.toMatchObject({ message: typeof message === 'string' ? `${message}` : message });
  });
});

describe('watch --html of an outage that recovers', () => {
  test('GIVEN an exposure down from 3 s to 6 s WHEN watched with --html THEN its chart marks errors started and errors stopped, each at its time', async () => {
    const { file, fakes, url } = room(1);
    const html = join(dir, 'recovers.html');
    const down = fakes.get(url('attendee-01', 'aws', 'nodeport-local'))!;
    const run = await watchFake(['--outputs', file, '--exposure', 'nodeport-local', '--duration', '10', '--html', html, '--my-ip', PROBER], fakes, {
      script: async (clock) => {
        await clock.sleep(3000);
        down.fail = 'connection refused';
        await clock.sleep(3000);
        down.fail = null;
      },
    });
    expect(run.code).toBe(0);
    const section = readFileSync(html, 'utf8').split('<h2>attendee-01 aws nodeport-local</h2>')[1].split('<h2>')[0];
    // Numbered marks on the time axis, listed under the chart; errors stopped within 2 s of the recovery.
    expect(section).toMatch(/>1\. 00:0[34] errors started: connection refused<\/text>/);
    expect(section).toMatch(/>2\. 00:0[78] errors stopped<\/text>/);
    expect(section.match(/<line x1="[\d.]+" y1="40" x2="[\d.]+" y2="340" stroke="#b00020"/g)).toHaveLength(2);
  });
});

describe('--env and --shard together narrow the stacks npx cdktf output reads', () => {
  const envs = ['ann', 'bob', 'cy'];
  // A shard of two holding exactly one of ann and bob: --env ann,bob and that shard keep only it.
  const total = 2;
  const index = [1, 2].find((k) => selectShard(envs, { index: k, total }).filter((e) => e === 'ann' || e === 'bob').length === 1)!;
  const kept = selectShard(envs, { index, total }).filter((e) => e === 'ann' || e === 'bob');
  let synthDir: string;
  beforeAll(() => {
    synthDir = join(dir, 'cdktf.out');
    mkdirSync(synthDir, { recursive: true });
    const stacks = Object.fromEntries(envs.flatMap((e) => [`${e}-aws-cluster`, `${e}-aws-lb`].map((s) => [s, { name: s }])));
    writeFileSync(join(synthDir, 'manifest.json'), JSON.stringify({ version: '0.21.0', stacks }));
  });

  /** The stack names a recorded `npx cdktf output ...` was given (after its flags). */
  const stacksOf = (args: readonly string[]) => args.slice(args.indexOf(synthDir) + 1);

  test('GIVEN --env ann,bob and a shard holding one of them (and cy) WHEN watch reads the outputs THEN only that one environment’s stacks are asked for', async () => {
    expect(kept).toHaveLength(1);
    const calls: (readonly string[])[] = [];
    const code = await runWatch(['--dir', synthDir, '--env', 'ann,bob', '--shard', `${index}/${total}`], {
      stdout: { write: () => true },
      err: () => undefined,
      env: {},
      environments: () => envs,
      run: async (command, args) => {
        calls.push([command, ...args]);
        return { code: 1, stderr: 'recorded, not run' };
      },
    });
    expect(code).toBe(1);
    expect(calls).toHaveLength(1);
    expect(calls[0].slice(0, 3)).toEqual(['npx', 'cdktf', 'output']);
    expect(stacksOf(calls[0])).toEqual([`${kept[0]}-aws-cluster`, `${kept[0]}-aws-lb`]);
  });

  test('GIVEN the same for compare THEN the same stacks', async () => {
    const calls: (readonly string[])[] = [];
    const code = await runCompare(['--dir', synthDir, '--env', 'ann,bob', '--shard', `${index}/${total}`], {
      out: () => undefined,
      err: () => undefined,
      progress: { write: () => true, isTTY: false },
      environments: () => envs,
      run: async (command, args) => {
        calls.push([command, ...args]);
        return { code: 1, stderr: 'recorded, not run' };
      },
    });
    expect(code).toBe(1);
    expect(calls.map(stacksOf)).toEqual([[`${kept[0]}-aws-cluster`, `${kept[0]}-aws-lb`]]);
  });
});

describe('pacingNote', () => {
  const result = (sent: number, within: number) => ({ pacing: { due: sent, sent, within_50ms: within, late_p50_ms: 3, late_p99_ms: 120, late_max_ms: 300 } } as unknown as WatchResult);

  test.each([
    ['199 requests, all late (too few to judge)', 199, 0],
    ['1000 requests, 95% on time', 1000, 950],
  ])('GIVEN %s THEN nothing is said', (_, sent, within) => {
    expect(pacingNote(result(sent, within))).toBeUndefined();
  });

  test('GIVEN 1000 requests of which 900 went out within 50 ms THEN the end says the machine fell behind and what to lower', () => {
    expect(pacingNote(result(1000, 900))).toBe(
      'this machine fell behind: 90% of 1000 requests went out within 50 ms of their time (p99 120 ms late); changes show later. Lower --rate or --max-rate, or watch fewer exposures (--env, --exposure)',
    );
  });
});
