/**
 * A pool of long-lived AWS provider processes for the emulator tests: the
 * same terraform-provider-aws binary Terraform would start, started once per
 * jest run in its debug mode (`-debug`), and lent to one Terraform command at a
 * time through Terraform's documented reattach mechanism (TF_REATTACH_PROVIDERS,
 * https://developer.hashicorp.com/terraform/plugin/debugging).
 *
 * Why: a Terraform command starts the AWS provider once per graph walk (a plan
 * three times, an apply four, a destroy five), and each start costs 3-4 CPU-s
 * of Go initialisation and schema building before any API call. Measured on
 * this 2-core machine for one `npm run local` (apply, re-plan, destroy of the
 * 37-resource cluster stack): 79 CPU-s with a provider start per walk, 59 with
 * a pooled provider. The emulator suite is CPU-bound, so that is its wall time.
 *
 * How: `terraform` on the workers' PATH is `test/emulator/bin/terraform`, a
 * shell script that, for the commands that start providers (plan, apply,
 * destroy, refresh, show, validate, import), takes the first idle slot's lock
 * (flock, held by the Terraform process itself until it exits) and runs the
 * real Terraform attached to that slot's provider; with every slot busy it runs
 * Terraform as usual. So no provider ever serves two Terraform processes at once
 * (their provider configurations differ), and nothing waits for a slot.
 * `init` always runs unattached: it installs the provider from the mirror as a
 * user's init does, so an unattached command after it finds it installed.
 *
 * What differs from a user's run: the provider process outlives one command,
 * and is configured again by each (ConfigureProvider runs on every walk, as in
 * any run). `local-emulator.test.ts` and `local-interrupt.test.ts` run without
 * the pool, so the suite still runs `npm run local`, and its Ctrl-C, exactly as
 * a user does.
 *
 * The lock (fd 9) is inherited by whatever Terraform starts (Go does not close
 * inherited descriptors): a plugin or credential helper outliving Terraform can
 * only keep a slot busy longer, never hand one provider to two commands.
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AWS_PROVIDER_VERSION, findProviderMirror } from '../../lib/lab/files/terraform-env';
import { Watchdog } from './watchdog';

/** The shim the workers find as `terraform` (its folder goes first on PATH). */
export const SHIM_DIR = resolve(__dirname, 'bin');

/** Environment that routes the tests' `terraform` through the pool. */
export interface ProviderPoolEnv {
  readonly PATH: string;
  readonly HOPLAB_TEST_PROVIDER_POOL: string;
  readonly HOPLAB_TEST_REAL_TERRAFORM: string;
}

/** A started pool. */
export interface ProviderPool {
  /** Slots started (each a provider process). */
  readonly size: number;
  /** Add to the environment of the processes that should use it. */
  readonly env: ProviderPoolEnv;
  /** Stops every provider process. */
  stop(): Promise<void>;
}

/** The real `terraform` on PATH (not the shim), or undefined. */
export function realTerraform(path = process.env.PATH ?? ''): string | undefined {
  for (const dir of path.split(':')) {
    if (!dir || resolve(dir) === SHIM_DIR) continue;
    const candidate = join(dir, 'terraform');
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The AWS provider binary in the filesystem mirror, or undefined when there is none. */
export function mirroredAwsProvider(): string | undefined {
  const mirror = findProviderMirror();
  if (!mirror || process.platform !== 'linux' || process.arch !== 'x64') return undefined;
  const dir = join(mirror, 'registry.terraform.io', 'hashicorp', 'aws', AWS_PROVIDER_VERSION, 'linux_amd64');
  const binary = existsSync(dir) ? readdirSync(dir).find((f) => f.startsWith('terraform-provider-aws')) : undefined;
  return binary ? join(dir, binary) : undefined;
}

/**
 * Starts one provider in debug mode, its output going to `logFile`; resolves
 * with its process and TF_REATTACH_PROVIDERS value once it has printed it.
 * A file, not a pipe: a test that runs in jest's main process and blocks in
 * spawnSync would stop a pipe being drained, and the provider, logging to a
 * full pipe, would hang the Terraform it serves. No deadline: four providers
 * starting at once at a low priority beside other jobs can take minutes; it
 * fails when the provider exits, or stalls (no output, no CPU used: watchdog.ts).
 */
async function startProvider(binary: string, logFile: string, stallMs?: number): Promise<{ child: ChildProcess; reattach: string }> {
  // AWS_CA_BUNDLE (set on this machine) makes a second ConfigureProvider in the same process fail
  // ("unable to add custom RootCAs HTTPClient, has no WithTransportOptions"): the first wraps the
  // shared HTTP client. The emulator is plain HTTP on loopback, so the bundle is never used.
  const env = { ...process.env };
  delete env.AWS_CA_BUNDLE;
  delete env.TF_REATTACH_PROVIDERS;
  const out = openSync(logFile, 'w');
  // In jest's process group, so a terminal's Ctrl-C stops it with jest; killed at jest's exit too, even when the global teardown never runs.
  const child = spawn(binary, ['-debug'], { env, stdio: ['ignore', out, out] });
  closeSync(out);
  const killAtExit = () => child.kill('SIGKILL');
  process.once('exit', killAtExit);
  child.once('exit', () => process.removeListener('exit', killAtExit));
  let exited: string | undefined;
  child.on('exit', (code, signal) => (exited = String(code ?? signal)));
  child.on('error', (error) => (exited = error.message));
  const dog = new Watchdog({ what: `the AWS provider ${binary} -debug (log ${logFile}), before it printed its reattach address`, stallMs, pid: () => child.pid, files: () => [logFile] });
  try {
    for (;;) {
      const text = readFileSync(logFile, 'utf8');
      const match = /TF_REATTACH_PROVIDERS='([^']+)'/.exec(text);
      if (match) return { child, reattach: match[1] };
      if (exited !== undefined) throw new Error(`the AWS provider exited (${exited}) before it printed its reattach address:\n${text.slice(-2000)}`);
      await Promise.race([new Promise((r) => setTimeout(r, 50)), dog.failed]);
    }
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  } finally {
    dog.stop();
  }
}

/** What the pool runs on, or undefined when it cannot run here: the mirrored AWS provider, a real terraform and flock(1). */
function poolParts(): { binary: string; terraform: string } | undefined {
  const binary = mirroredAwsProvider();
  const terraform = realTerraform();
  if (!binary || !terraform || spawnSync('flock', ['--version'], { stdio: 'ignore' }).status !== 0) return undefined;
  return { binary, terraform };
}

/** Whether the pool can run here: the mirrored AWS provider, a real terraform and flock(1). */
export function providerPoolPossible(): boolean {
  return poolParts() !== undefined;
}

/**
 * Starts `size` providers and writes their slots under `dir`. Returns undefined
 * (the tests then run Terraform as usual) when the pool cannot run here
 * ({@link providerPoolPossible}); throws when it can but a provider does not
 * start (it exits, or stalls for `stallMs`: watchdog.ts), as that is a broken
 * provider or machine, not a reason to go slow.
 */
export async function startProviderPool(dir: string, size: number, stallMs?: number): Promise<ProviderPool | undefined> {
  const parts = poolParts();
  if (!parts || size < 1) return undefined;
  const { binary, terraform } = parts;
  mkdirSync(dir, { recursive: true });
  const started = await Promise.allSettled(Array.from({ length: size }, (_, i) => startProvider(binary, join(dir, `provider-${i}.log`), stallMs)));
  const children = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value.child] : []));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  const stop = async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
            setTimeout(() => child.kill('SIGKILL'), 5000).unref();
          }),
      ),
    );
  };
  if (failed) {
    await stop();
    throw failed.reason;
  }
  started.forEach((s, i) => {
    if (s.status !== 'fulfilled') return;
    const slot = join(dir, `slot-${i}`);
    mkdirSync(slot, { recursive: true });
    writeFileSync(join(slot, 'reattach'), s.value.reattach);
    writeFileSync(join(slot, 'pid'), String(s.value.child.pid));
    writeFileSync(join(slot, 'socket'), (JSON.parse(s.value.reattach) as Record<string, { Addr: { String: string } }>)['registry.terraform.io/hashicorp/aws'].Addr.String);
  });
  return {
    size,
    env: { PATH: `${SHIM_DIR}:${process.env.PATH ?? ''}`, HOPLAB_TEST_PROVIDER_POOL: dir, HOPLAB_TEST_REAL_TERRAFORM: terraform },
    stop,
  };
}

/** `env` without the pool: Terraform as a user runs it. */
export function withoutProviderPool(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  delete out.HOPLAB_TEST_PROVIDER_POOL;
  out.PATH = (out.PATH ?? '')
    .split(':')
    .filter((d) => d && resolve(d) !== SHIM_DIR)
    .join(':');
  return out;
}
