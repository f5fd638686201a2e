/**
 * Long work shows it is alive: on a terminal a block redrawn in place (exact
 * frames, through a fake TTY stream with its width), off a terminal one line
 * per task per minute at most (with a clock the test moves).
 */
import { LiveRegion } from '../../../lib/kit/terminal/live-region';
import { LiveStatus } from '../../../lib/kit/terminal/live-status';
import { describeActivity, TerraformActivity } from '../../../lib/kit/terraform/terraform-progress';
import { FakeClock, FakeStream } from '../../support/fake-terminal';

const UP = (n: number) => `\r\x1b[${n}A\x1b[J`;
const BOLD = (s: string) => `\x1b[1m${s}\x1b[0m`;
const HIDE = '\x1b[?25l';
const SHOW = '\x1b[?25h';

describe('off a terminal', () => {
  test('GIVEN two stacks applying for ten minutes WHEN the clock runs THEN each gets at most one line a minute, saying its phase, time and the resource it waits on', () => {
    const clock = new FakeClock();
    const lines: string[] = [];
    const stream = new FakeStream(false);
    const status = new LiveStatus({ stream, title: 'deploy', clock, write: (l) => lines.push(l), env: {} });
    expect(status.mode).toBe('lines');
    const cluster = new TerraformActivity();
    const gke = new TerraformActivity();
    status.start('lab-aws-cluster', 'init', (now) => describeActivity(cluster, now));
    status.start('lab-gcp-cluster', 'init', (now) => describeActivity(gke, now));
    clock.advance(20_000);
    status.update('lab-aws-cluster', { phase: 'apply' });
    cluster.feed('aws_eks_cluster.eks: Creating...', clock.now());
    clock.advance(39_000);
    expect(lines).toEqual([]);
    clock.advance(1000);
    expect(lines).toEqual(['  ... lab-aws-cluster: apply 1m00s, waiting on aws_eks_cluster.eks (creating, 40s)', '  ... lab-gcp-cluster: init 1m00s']);
    // Terraform's "Still creating" every 10 s is not a reason for a line of ours.
    for (let i = 0; i < 5; i += 1) {
      clock.advance(10_000);
      cluster.feed(`aws_eks_cluster.eks: Still creating... [${50 + i * 10}s elapsed]`, clock.now());
    }
    expect(lines).toHaveLength(2);
    clock.advance(10_000);
    expect(lines.slice(2)).toEqual(['  ... lab-aws-cluster: apply 2m00s, waiting on aws_eks_cluster.eks (creating, 1m40s)', '  ... lab-gcp-cluster: init 2m00s']);
    clock.advance(8 * 60_000);
    expect(lines).toHaveLength(20);
    const perStack = (stack: string) => lines.filter((l) => l.includes(stack)).length;
    expect([perStack('lab-aws-cluster'), perStack('lab-gcp-cluster')]).toEqual([10, 10]);
    status.end('lab-gcp-cluster', '  done   lab-gcp-cluster in 600.0 s');
    clock.advance(60_000);
    expect(lines.slice(20)).toEqual(['  done   lab-gcp-cluster in 600.0 s', '  ... lab-aws-cluster: apply 11m00s, waiting on aws_eks_cluster.eks (creating, 10m40s)']);
    status.end('lab-aws-cluster');
    expect(clock.activeTimers).toBe(0);
    // Nothing was written around the lines: no escapes, no redraws.
    expect(stream.writes).toEqual([]);
  });

  test('GIVEN a task that started 30 s ago and a line-every of 60 s WHEN it ends at 50 s THEN no status line was printed for it', () => {
    const clock = new FakeClock(1_000_000);
    const stream = new FakeStream(false);
    const status = new LiveStatus({ stream, title: 'verify', clock, env: {} });
    status.start('ready lab aws native', 'waiting');
    clock.advance(50_000);
    status.end('ready lab aws native', 'ready: lab aws native answered HTTP 200 after 50 s');
    expect(stream.text).toBe('ready: lab aws native answered HTTP 200 after 50 s\n');
  });
});

describe('a room of tasks (verify waits for every exposure at once)', () => {
  test('GIVEN 30 tasks and a 12-row terminal WHEN the block is drawn THEN it takes half the rows at most: the first tasks, then how many more', () => {
    const clock = new FakeClock();
    const status = new LiveStatus({ stream: new FakeStream(true, 80), title: 'verify', clock, env: { LINES: '12' }, mode: 'tty' });
    for (let i = 1; i <= 30; i += 1) status.start(`ready a${String(i).padStart(2, '0')} aws native`, 'waiting');
    const frame = status.frame();
    expect(frame).toEqual([
      'verify: 30 running (0s so far)',
      '  ready a01 aws native  waiting     0s',
      '  ready a02 aws native  waiting     0s',
      '  ready a03 aws native  waiting     0s',
      '  ready a04 aws native  waiting     0s',
      '  ... and 26 more',
    ]);
    status.stop();
  });

  test('GIVEN 30 tasks off a terminal WHEN their minute comes THEN 9 lines name the first and one counts the rest', () => {
    const clock = new FakeClock();
    const lines: string[] = [];
    const status = new LiveStatus({ stream: new FakeStream(false), title: 'verify', clock, write: (l) => lines.push(l), env: {} });
    for (let i = 1; i <= 30; i += 1) status.start(`ready a${String(i).padStart(2, '0')} aws native`, 'waiting');
    clock.advance(60_000);
    expect(lines).toHaveLength(10);
    expect(lines[0]).toBe('  ... ready a01 aws native: waiting 1m00s');
    expect(lines[9]).toBe('  ... and 21 more still running (verify)');
    status.stop();
  });
});

describe('on a terminal', () => {
  test('GIVEN a 60-column colour terminal WHEN stacks start, progress and end THEN each frame redraws the block in place, exactly, fitted to the width', () => {
    const clock = new FakeClock();
    const stream = new FakeStream(true, 60);
    const status = new LiveStatus({ stream, title: 'deploy', clock, env: {}, summary: () => '2 waiting' });
    expect(status.mode).toBe('tty');
    const activity = new TerraformActivity();
    status.start('lab-aws-cluster', 'init', (now) => describeActivity(activity, now));
    expect(stream.writes).toEqual([`${BOLD('deploy: 1 running, 2 waiting (0s so far)')}\n  lab-aws-cluster  init     0s\n`]);
    clock.advance(5000);
    status.update('lab-aws-cluster', { phase: 'apply' });
    activity.feed('aws_eks_cluster.eks_cluster_ABCDEF: Creating...', clock.now());
    status.line('  start  lab-gcp-cluster (apply; 2 running)');
    status.start('lab-gcp-cluster', 'init');
    stream.writes.length = 0;
    clock.advance(1000);
    // One write per frame: back to the block's first line, erase, the new block; every line cut to 59 columns.
    expect(stream.writes).toEqual([
      UP(3) + `${BOLD('deploy: 2 running, 2 waiting (6s so far)')}\n` + '  lab-aws-cluster  apply     6s  waiting on aws_eks_clus...\n' + '  lab-gcp-cluster  init      1s\n',
    ]);
    expect(stream.writes[0].split('\n').map((l) => l.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').replace('\r', '').length)).toEqual([40, 59, 31, 0]);
    stream.writes.length = 0;
    status.end('lab-gcp-cluster', '  done   lab-gcp-cluster in 1.0 s');
    expect(stream.writes).toEqual([
      UP(3) + '  done   lab-gcp-cluster in 1.0 s\n' + `${BOLD('deploy: 1 running, 2 waiting (6s so far)')}\n` + '  lab-aws-cluster  apply     6s  waiting on aws_eks_clus...\n',
    ]);
    stream.writes.length = 0;
    status.end('lab-aws-cluster', '  done   lab-aws-cluster in 6.0 s');
    status.stop();
    expect(stream.writes).toEqual([UP(2) + '  done   lab-aws-cluster in 6.0 s\n']);
    expect(clock.activeTimers).toBe(0);
  });

  test('GIVEN NO_COLOR and $COLUMNS WHEN the block is drawn THEN it redraws in place without colour, at $COLUMNS', () => {
    const clock = new FakeClock();
    const stream = new FakeStream(true, 200);
    const status = new LiveStatus({ stream, title: 'teardown', clock, env: { NO_COLOR: '1', COLUMNS: '30' } });
    status.start('ann-aws-lb', 'destroy', () => 'waiting on helm_release.controller (destroying, 1m0s)');
    clock.advance(1000);
    // 30 columns: every line cut to 29.
    expect(stream.writes).toEqual(['teardown: 1 running (0s so...\n  ann-aws-lb  destroy     ...\n', `${UP(2)}teardown: 1 running (1s so...\n  ann-aws-lb  destroy     ...\n`]);
    status.stop();
  });

  test('GIVEN a region WHEN cleared with lines THEN the lines take its place and nothing is left of it', () => {
    const stream = new FakeStream(true, 80);
    const region = new LiveRegion(stream, { env: {} });
    region.render(['a', 'b']);
    region.clear(['done']);
    region.render(['c']);
    expect(stream.writes).toEqual(['a\nb\n', `${UP(2)}done\n`, 'c\n']);
  });

  test("GIVEN watch's screen (cursor hidden, lines laid out by the caller) WHEN frames are drawn and it is released THEN the cursor is hidden once, each frame goes back up over the last, lines are not cut, and the cursor comes back", () => {
    const stream = new FakeStream(true, 10);
    const region = new LiveRegion(stream, { env: {}, hideCursor: true, cut: false });
    const wide = `${BOLD('0123456789')}`;
    region.render(['one', wide, 'three']);
    region.render(['four']);
    region.render(['five', 'six']);
    region.release();
    region.render(['seven']);
    expect(stream.writes).toEqual([`${HIDE}one\n${wide}\nthree\n`, `${UP(3)}four\n`, `${UP(1)}five\nsix\n`, SHOW, `${HIDE}seven\n`]);
  });

  test('GIVEN a region that never hid the cursor WHEN released THEN nothing is written', () => {
    const stream = new FakeStream(true, 80);
    const region = new LiveRegion(stream, { env: {} });
    region.render(['a']);
    region.release();
    region.render(['b']);
    expect(stream.writes).toEqual(['a\n', 'b\n']);
  });
});
