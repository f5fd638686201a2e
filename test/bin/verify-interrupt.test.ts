/**
 * `npx hoplab verify` against a lab whose load balancers never become ready stops on the first
 * SIGTERM (or Ctrl-C): it says so, stops waiting, prints its report (INCOMPLETE) and exits 1,
 * rather than waiting out --wait for each exposure. The built command runs as users run it, with
 * the exposures' URLs in an outputs file and Terraform not on the PATH (its plans are left out).
 * No fixed sleep: the test sends the signal once every exposure has been asked, and a watchdog on
 * the exposures fails it when the command is still polling them after the signal.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EXPOSURE_FACTS } from '../../lib/model/exposure-facts';

const ROOT = resolve(__dirname, '..', '..');
const HOPLAB = join(ROOT, 'scripts', 'hoplab.cjs');

beforeAll(() => {
  execFileSync(process.execPath, ['scripts/build.mjs', 'verify'], { cwd: ROOT });
});

/** A load balancer with no healthy target: every request answered 503; `seen` is told of each. */
async function unavailable(seen: () => void): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let n = 0;
  const server: Server = createServer((_req, res) => {
    n += 1;
    res.writeHead(503);
    res.end('no healthy upstream\n');
    seen();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests: () => n,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

test('GIVEN a lab whose exposures never become ready and --wait 1800 WHEN verify gets one SIGTERM THEN it stops waiting, reports INCOMPLETE and exits 1', async () => {
  const modes = ['nodeport-l4', 'nodeport-local', 'native-l4'] as const;
  let check = () => undefined as void;
  const lbs = await Promise.all(modes.map(() => unavailable(() => check())));
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'hoplab-verify-sigterm-')));
  try {
    const exposures = Object.fromEntries(modes.map((mode, i) => [`exposure_${mode.replace(/-/g, '_')}`, { mode, cloud: 'aws', ...EXPOSURE_FACTS.aws[mode], url: lbs[i].url }]));
    writeFileSync(join(dir, 'outputs.json'), JSON.stringify({ 'lab-aws-lb': exposures }));
    // No Terraform on the PATH: verify leaves its plans out at once and goes to the exposures.
    mkdirSync(join(dir, 'no-terraform'));
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !['HOPLAB_CONFIG', 'HOPLAB_AWS_ENDPOINT'].includes(name)));
    const child = spawn(process.execPath, [HOPLAB, 'verify', '--stacks', 'aws-lb', '--outputs', 'outputs.json', '--wait', '1800', '--my-ip', '127.0.0.1', '--report', 'report'], {
      cwd: dir,
      env: { ...inherited, NO_COLOR: '1', PATH: join(dir, 'no-terraform') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));

    // Every exposure asked at least once (they are waited for side by side), then SIGTERM.
    // One after another, the first would be asked again and again while the others wait: that fails here.
    await new Promise<void>((ready, fail) => {
      check = () => {
        if (lbs.every((lb) => lb.requests() > 0)) ready();
        else if (lbs.some((lb) => lb.requests() > 2)) fail(new Error(`exposures waited for one after another: requests ${lbs.map((lb) => lb.requests()).join(', ')}`));
      };
      void exited.then((code) => fail(new Error(`verify exited (${code}) before it waited:\n${stderr}`)));
    });
    const atSignal = lbs.map((lb) => lb.requests());
    child.kill('SIGTERM');

    // The watchdog: a request in flight at the signal may still arrive; two more at one exposure mean it is still polling.
    const stillPolling = new Promise<never>((_, fail) => {
      check = () => {
        if (lbs.some((lb, i) => lb.requests() - atSignal[i] > 1)) {
          child.kill('SIGKILL');
          fail(new Error(`verify still waits after SIGTERM: requests ${atSignal.join(', ')} at the signal, ${lbs.map((lb) => lb.requests()).join(', ')} now\n${stderr}`));
        }
      };
    });
    const code = await Promise.race([exited, stillPolling]);

    expect(code).toBe(1);
    expect(stderr.match(/SIGTERM received/g)).toHaveLength(1);
    expect(stderr).toContain('hoplab verify: SIGTERM received; stopping: the report says what ran');
    expect(stderr).not.toContain('second SIGTERM');
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('hoplab verify: INCOMPLETE (lab)');
    for (const mode of modes) {
      expect(lines).toContainEqual(
        expect.stringMatching(
          new RegExp(`^ {2}left out ready of lab aws ${mode}: interrupted \\(Ctrl-C or SIGTERM\\) after [\\d.]+ s of waiting \\(\\d+ attempts?, last: (HTTP 503|no answer yet)\\)$`),
        ),
      );
    }
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { verdict: string; readiness: unknown[] };
    expect([report.verdict, report.readiness]).toEqual(['incomplete', []]);
  } finally {
    await Promise.all(lbs.map((lb) => lb.close()));
  }
});
