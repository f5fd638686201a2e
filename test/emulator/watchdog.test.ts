/**
 * The watchdog the emulator flows run under (watchdog.ts), with small shell
 * scripts standing in for Terraform. A flow fails when it stops making progress,
 * never for being slow: the stall limits here are seconds, and every process
 * that should pass keeps its gaps far below them, so a busy machine does not
 * decide these either.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOPLAB_HEARTBEAT, runWatched } from './watchdog';

const dir = mkdtempSync(join(tmpdir(), 'hoplab-watchdog-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sh = (script: string, options: Omit<Parameters<typeof runWatched>[2], 'cwd' | 'env'>) => runWatched('sh', ['-c', script], { cwd: dir, env: process.env, ...options });
const failure = async (run: Promise<unknown>): Promise<Error> => {
  const result = await run.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(result instanceof Error)) throw new Error('expected the run to fail, it passed');
  return result;
};
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('runWatched', () => {
  test('GIVEN a process that goes silent and idle WHEN watched THEN it fails naming what stalled, for how long, its last output and log lines, and is ended', async () => {
    const error = await failure(
      sh('echo "pid $$"; echo "aws_vpc.vpc: Creating..."; echo "aws_vpc.vpc: Still creating... [10s elapsed]" >> tf.log; exec sleep 600', {
        what: 'terraform apply (stand-in)',
        stallMs: 2000,
        files: () => [join(dir, 'tf.log')],
      }),
    );
    expect(error.message).toMatch(
      /^terraform apply \(stand-in\): stalled: no progress for \d+ s \(the limit is 2 s, HOPLAB_TEST_STALL_S\): no new output, no growth of its log files, under 100 ms of CPU used by its processes; it ran \d+ s in all\n/,
    );
    expect(error.message).toContain('\nlast output lines:\n  | pid ');
    expect(error.message).toContain('\n  | aws_vpc.vpc: Creating...\n');
    expect(error.message).toContain(`\nlast lines of ${join(dir, 'tf.log')}:\n  | aws_vpc.vpc: Still creating... [10s elapsed]`);
    // `exec sleep`: the shell's pid is the sleep's, which the watchdog ended.
    const pid = Number(/\| pid (\d+)/.exec(error.message)![1]);
    while (alive(pid)) await new Promise((r) => setTimeout(r, 50));
  });

  test('GIVEN a process that prints, or writes its log, at intervals far below the stall limit WHEN it runs for longer than that limit THEN it passes', async () => {
    const printing = await sh('for i in $(seq 1 25); do echo "tick $i"; sleep 0.2; done', { stallMs: 2500 });
    expect(printing).toExitWith(0);
    expect(printing.stdout.trim().split('\n')).toHaveLength(25);
    const logging = await sh('for i in $(seq 1 25); do echo "tick $i" >> quiet.log; sleep 0.2; done', { stallMs: 2500, files: () => [join(dir, 'quiet.log')] });
    expect(logging).toMatchObject({ code: 0, out: '' });
  });

  test('GIVEN a silent process that keeps using CPU WHEN watched THEN it is slow, not stalled', async () => {
    // 2 s of CPU time, printing nothing; any share of a core above 1 % keeps it moving within the 10 s limit.
    const busy = await runWatched(process.execPath, ['-e', 'const end = process.cpuUsage().user + 2e6; while (process.cpuUsage().user < end);'], { cwd: dir, env: process.env, stallMs: 10_000 });
    expect(busy).toMatchObject({ code: 0, out: '' });
  });

  test("GIVEN a process that prints only hoplab's heartbeat WHEN watched THEN the heartbeat is no progress", async () => {
    const error = await failure(
      sh('echo "[4/8] terraform apply ..."; while :; do echo "      ... terraform apply: 10.0 s, 3 resources created"; sleep 0.1; done', { stallMs: 2000, notProgress: HOPLAB_HEARTBEAT }),
    );
    expect(error.message).toMatch(/: stalled: no progress for \d+ s/);
    // What it last did is shown however long the heartbeat ticked, and the heartbeat is counted, not repeated.
    expect(error.message).toContain('last output lines:\n  | [4/8] terraform apply ...\nthen ');
    expect(error.message).toMatch(/then \d+ heartbeat lines? \(no progress\), the last:\n {2}\| {7}\.\.\. terraform apply: 10\.0 s, 3 resources created/);
  });

  test('GIVEN a process that makes progress forever WHEN it reaches the safety cap THEN it fails saying so', async () => {
    const error = await failure(sh('while :; do echo tick; sleep 0.1; done', { what: 'a retry loop', stallMs: 60_000, capMs: 1000 }));
    expect(error.message).toMatch(/^a retry loop: still running after \d+ s, the safety cap \(HOPLAB_TEST_CAP_S; far above what a slow, busy machine needs\), though it kept making progress\n/);
  });

  test('GIVEN a process that exits non-zero WHEN watched THEN its code and each stream come back; failing is up to the test', async () => {
    expect(await sh('echo out; echo err >&2; exit 3', {})).toEqual({
      code: 3,
      out: expect.stringMatching(/^(out\nerr\n|err\nout\n)$/),
      stdout: 'out\n',
      stderr: 'err\n',
      what: `sh -c echo out; echo err >&2; exit 3 (in ${dir})`,
      logs: [],
    });
  });

  test('GIVEN a run that exits with the wrong code WHEN toExitWith checks it THEN the message shows its output and its Terraform log from the first error', async () => {
    const log = join(dir, 'stack.deploy.log');
    writeFileSync(
      log,
      ['aws_vpc.vpc: Creating...', 'aws_vpc.vpc: Creation complete after 0s', '', 'Error: creating IAM OIDC Provider: EntityAlreadyExists', '', '  with aws_iam_openid_connect_provider.p,'].join('\n'),
    );
    const failed = await sh('echo "applying"; echo "not every stack applied" >&2; exit 1', { stallMs: 10_000, files: () => [log] });
    expect(failed).toExitWith(1);
    expect(() => expect(failed).toExitWith(0)).toThrow(
      [
        'expected exit code 0, got 1:',
        `sh -c echo "applying"; echo "not every stack applied" >&2; exit 1 (in ${dir})`,
        '--- its output, last 30 lines ---',
        'applying',
        'not every stack applied',
        '--- stack.deploy.log ---',
        'Error: creating IAM OIDC Provider: EntityAlreadyExists',
        '',
        '  with aws_iam_openid_connect_provider.p,',
      ].join('\n'),
    );
  });
});
