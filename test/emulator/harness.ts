/**
 * Shared parts of the emulator tests (test/emulator). Use them, so that a new
 * emulator test costs what it tests and not another moto, another build or
 * another apply:
 *
 * - `sharedEmulator()`: the one moto of the jest run, started by global-setup.ts,
 *   for every test that does not apply an aws-cluster stack of its own: command
 *   lines, seeded resources, tests of `deployedEnvironment()`. Give each test its
 *   own environment name (config `name` or `attendees`), so leftover checks do not
 *   see another test's resources.
 * - `ownEmulator()`: a moto for this file alone, for a test that applies an
 *   aws-cluster stack itself (deploy, destroy, teardown). moto gives every EKS
 *   cluster of one process the same OIDC issuer, so a second cluster in the same
 *   moto fails on its OIDC provider (EntityAlreadyExists): one applied
 *   environment per moto. Stop it in afterAll.
 * - `command(name)`: dist/<name>.js, brought up to date (the global setup already
 *   built every stale command); `runCommand(name, args, options)`: the command as
 *   its npm script runs it (scripts/run.cjs, with its V8 code cache), under a
 *   watchdog on its progress (watchdog.ts), not a deadline.
 * - `terraformOutputs(stackDir)`, `terraformIn(stackDir, args)`: what a command
 *   applied, read back with Terraform (watched too); `emulatorAnswers(endpoint)`.
 * - `deployedEnvironment()`: the aws-cluster stack of environment `shared`,
 *   applied with `deploy` into the shared emulator once per jest run, however
 *   many test files (in however many workers) ask for it: the one applied
 *   environment the shared moto can hold. For tests that read or check a deployed
 *   lab (outputs, plans, verify, compare): they must not change or destroy it.
 *   It is never destroyed: moto, and all it holds, goes away when the run ends.
 *
 * The suites run in parallel (jest.config.js: 4 workers), so keep one long
 * emulator flow per file: files are what jest spreads over workers.
 */
import { ChildProcess, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Emulator, startMoto } from '../../lib/commands/local/moto';
import { filesIn, HOPLAB_HEARTBEAT, runWatched, WatchedRun, Watchdog } from './watchdog';

export const ROOT = resolve(__dirname, '..', '..');
/** The runner every npm script uses: checks the command is up to date, then runs it (scripts/run.cjs). */
const RUN = join(ROOT, 'scripts', 'run.cjs');

/**
 * The run's moto (shared; its `stop()` does nothing), or a moto of this file's own
 * when run without the global setup. The global setup waited for it to answer; it
 * is not asked again here with `externalEmulator`'s 5 s, which a moto running at a
 * low priority on a busy machine can miss while nothing is wrong.
 */
export async function sharedEmulator(): Promise<Emulator> {
  const endpoint = process.env.HOPLAB_TEST_EMULATOR;
  return endpoint ? { endpoint, owned: false, stop: async () => undefined } : startMoto();
}

const checked = new Set<string>();

/** A moto of this file's own (for a test that applies an aws-cluster stack); stop it in afterAll. */
export async function ownEmulator(): Promise<Emulator> {
  return startMoto();
}

/** Path of dist/<name>.js, built first if stale (a no-op after the global setup); checked once per test file. */
export function command(name: string): string {
  if (checked.has(name)) return join(ROOT, 'dist', `${name}.js`);
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), name], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`bin/${name}.ts does not build:\n${built.stdout}${built.stderr}`);
  checked.add(name);
  return join(ROOT, 'dist', `${name}.js`);
}

export interface RunOptions {
  /** Working directory (where the config and state are). Required. */
  readonly cwd: string;
  /** Added to the environment (HOPLAB_CONFIG is removed first). @default {} */
  readonly env?: NodeJS.ProcessEnv;
  /** Receives the output as it comes. */
  readonly onOutput?: (text: string) => void;
  /** Receives the command's process once started. */
  readonly onStart?: (child: ChildProcess) => void;
}

/**
 * Runs the command to its end as its npm script does (`node scripts/run.cjs <name>
 * args`), without blocking this worker's event loop; resolves with its exit code,
 * stdout+stderr (`out`), and each stream. No deadline: it is watched (watchdog.ts),
 * and rejects, naming what stalled and its last lines, only when neither its
 * output nor Terraform's logs in `<cwd>/.hoplab/logs` grow and its processes use
 * (almost) no CPU for the stall limit.
 */
export function runCommand(name: string, args: readonly string[], options: RunOptions): Promise<WatchedRun> {
  command(name);
  return runWatched(process.execPath, [RUN, name, ...args], {
    cwd: options.cwd,
    env: commandEnv(options),
    what: `npm run ${name} -- ${args.join(' ')} (in ${options.cwd})`,
    files: () => filesIn(join(options.cwd, '.hoplab', 'logs')),
    notProgress: HOPLAB_HEARTBEAT,
    onOutput: options.onOutput,
    onStart: options.onStart,
  });
}

/** The environment a command runs with: this process's, without HOPLAB_CONFIG, plus `options.env`. */
function commandEnv(options: RunOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.HOPLAB_CONFIG;
  return Object.assign(env, options.env ?? {});
}

/**
 * A `workshop.expiresAt` a week after now, for configs the commands (child processes, on the host's
 * clock) read: deploy and preflight refuse an expiry that has passed, so a fixed date would fail
 * these tests from that day on.
 */
export function expiryAhead(): string {
  return `${new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 19)}Z`;
}

/** An environment applied once per jest run into the shared emulator. */
export interface DeployedEnvironment {
  /** The environment's name (config `name`). */
  readonly env: string;
  /** Where `deploy` ran: hoplab.config.json, cdktf.out, state. Run further commands here. */
  readonly cwd: string;
  /** The emulator it lives in. */
  readonly endpoint: string;
  /** `terraform output -json` of `<env>-aws-cluster`, name -> value. */
  readonly outputs: Readonly<Record<string, unknown>>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Whether an emulator answers at `endpoint` now (one request). Where nothing listens
 * the request is refused at once; one that listens gets 60 s to answer: a moto at a
 * low priority on a busy machine can take seconds, and late is not "not running".
 */
export async function emulatorAnswers(endpoint: string): Promise<boolean> {
  try {
    await fetch(`${endpoint}/moto-api/`, { signal: AbortSignal.timeout(60_000) });
    return true;
  } catch {
    return false;
  }
}

/** `terraform <args>` in a synthesized stack's folder (state and providers as the command left them), watched; its exit code and output. */
export function terraformIn(stackDir: string, args: readonly string[]): Promise<WatchedRun> {
  return runWatched('terraform', [...args, '-no-color'], { cwd: stackDir, env: { ...process.env, TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1' } });
}

/** `terraform output -json` of a synthesized stack's folder, name -> value; throws with Terraform's error when it fails. */
export async function terraformOutputs(stackDir: string): Promise<Record<string, unknown>> {
  const output = await terraformIn(stackDir, ['output', '-json']);
  if (output.code !== 0) throw new Error(`terraform output failed in ${stackDir}: ${output.stderr}`);
  const raw = JSON.parse(output.stdout) as Record<string, { value: unknown }>;
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, v.value]));
}

/**
 * The aws-cluster stack of environment `shared` (default lab settings otherwise),
 * deployed into the shared emulator by the first caller of the jest run; other
 * callers, in any worker, wait for it and get the same one. They wait while that
 * deploy makes progress (its output and Terraform logs grow, see watchdog.ts), not
 * for a fixed time.
 */
export async function deployedEnvironment(): Promise<DeployedEnvironment> {
  const env = 'shared';
  const runDir = process.env.HOPLAB_TEST_RUN_DIR;
  const endpoint = process.env.HOPLAB_TEST_EMULATOR;
  if (!runDir || !endpoint) {
    throw new Error("deployedEnvironment() needs the emulator project's global setup: run the test with jest.config.js (npx jest test/emulator/...)");
  }
  const dir = join(runDir, `env-${env}`);
  const resultFile = join(dir, 'deployed.json');
  let mine = false;
  try {
    mkdirSync(dir);
    mine = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  if (mine) {
    let result: DeployedEnvironment | { error: string };
    try {
      result = await deploy(env, dir, endpoint);
    } catch (error) {
      result = { error: error instanceof Error ? error.message : String(error) };
    }
    writeFileSync(`${resultFile}.tmp`, JSON.stringify(result));
    renameSync(`${resultFile}.tmp`, resultFile);
  }
  if (!existsSync(resultFile)) {
    const dog = new Watchdog({
      what: `deployedEnvironment(${env}): the deploy in another worker (${dir})`,
      files: () => [join(dir, 'deploy.out'), ...filesIn(join(dir, '.hoplab', 'logs'))],
    });
    try {
      while (!existsSync(resultFile)) await Promise.race([sleep(500), dog.failed]);
    } finally {
      dog.stop();
    }
  }
  const result = JSON.parse(readFileSync(resultFile, 'utf8')) as DeployedEnvironment | { error: string };
  if ('error' in result) throw new Error(`deployedEnvironment(${env}) failed: ${result.error}`);
  return result;
}

async function deploy(env: string, cwd: string, endpoint: string): Promise<DeployedEnvironment> {
  writeFileSync(join(cwd, 'hoplab.config.json'), JSON.stringify({ name: env }));
  // The output goes to deploy.out as it comes: callers in other workers watch it to tell a slow deploy from a stuck one.
  const { code, out } = await runCommand('deploy', ['--stacks', 'aws-cluster', '--yes'], {
    cwd,
    env: { HOPLAB_AWS_ENDPOINT: endpoint },
    onOutput: (text) => appendFileSync(join(cwd, 'deploy.out'), text),
  });
  if (code !== 0) throw new Error(`deploy exited ${code}:\n${out.slice(-3000)}`);
  const stackDir = join(cwd, 'cdktf.out', 'stacks', `${env}-aws-cluster`);
  try {
    return { env, cwd, endpoint, outputs: await terraformOutputs(stackDir) };
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n(deploy said:\n${out.slice(-2000)})`);
  }
}
