/**
 * `npm run local` interrupted for real: Terraform 1.x, the AWS provider from the
 * machine's provider mirror, and the command's own moto. Nothing here is mocked.
 * (Split from local-emulator.test.ts so jest runs it beside that flow, in another worker.)
 */
import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { command, emulatorAnswers, ROOT } from './harness';
import { withoutProviderPool } from './provider-pool';
import { HOPLAB_HEARTBEAT, killTree, Watchdog } from './watchdog';

describe('npm run local interrupted', () => {
  test('GIVEN a run of the real command WHEN a terminal Ctrl-C reaches its whole process group during apply THEN Terraform stops gracefully, what it applied is destroyed, its emulator stopped, and it exits 130', async () => {
    // Without the test run's provider pool (provider-pool.ts): Terraform starts, interrupts and stops its own provider, as a user's does.
    const env = withoutProviderPool(process.env);
    delete env.HOPLAB_AWS_ENDPOINT;
    delete env.HOPLAB_CONFIG;
    // A process group of its own, as a shell gives a foreground job: Ctrl-C is sent to the whole group.
    command('local');
    // As `npm run local` runs it: the runner checks dist/local.js and runs it in its own process.
    const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'scripts', 'run.cjs'), 'local'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    // Watched, not timed (watchdog.ts): the waits below fail only when the command stops making progress.
    const dog = new Watchdog({ what: 'npm run local (to be interrupted during apply)', pid: () => child.pid, notProgress: HOPLAB_HEARTBEAT });
    let output = '';
    const sawApply = new Promise<void>((resolveSeen) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        dog.output(chunk.toString());
        if (/\[4\/8\] terraform apply/.test(output)) resolveSeen();
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
    });
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    let code: number | null;
    try {
      await Promise.race([sawApply, dog.failed]);
      await new Promise((r) => setTimeout(r, 4000));
      process.kill(-child.pid!, 'SIGINT');
      code = await Promise.race([exited, dog.failed]);
    } catch (error) {
      killTree(child.pid);
      throw error;
    } finally {
      dog.stop();
    }

    expect(code).toBe(130);
    expect(output).toContain('SIGINT received; stopping and cleaning up');
    expect(output).toContain('cleanup: destroying what was applied ...');
    expect(output).toContain('cleanup: destroyed');
    expect(output).toContain('cleanup: emulator stopped');
    expect(output).not.toContain('Two interrupts received');
    expect(output).not.toContain('cleanup: destroy failed');
    const endpoint = /emulator: (http:\/\/127\.0\.0\.1:\d+) \(started by hoplab/.exec(output)?.[1];
    expect(endpoint).toBeDefined();
    expect(await emulatorAnswers(endpoint!)).toBe(false);
  });
});
