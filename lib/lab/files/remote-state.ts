/**
 * Reads the state of stacks whose backend is remote (s3, gcs, or an s3 backend
 * redirected to the emulator): `terraform state pull` in a folder of each stack
 * holding nothing but its backend, as `addStateBackend` writes it (so the state
 * is read where the stacks keep it, with the credentials Terraform uses). `terraform
 * init` there still installs the providers the state's resources name (Terraform
 * wants them for the resources it tracks), from the project's provider cache that
 * deploy and teardown fill anyway; one init at a time, so two first installs into
 * the cache never race. The folders are `.hoplab/state-read/stacks/<stack>`; logs
 * `.hoplab/logs/<stack>.state.log` (the command lines and errors; never the state,
 * which can hold secrets).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type * as Cdktf from 'cdktf';
import { BackendConfig } from '../../config/schema';
import type * as StateBackend from '../../stacks/state-backend';
import { runTerraform } from '../../kit/terraform/terraform';
import { labTerraformEnv } from './terraform-env';

/** One stack's pulled state: its JSON (undefined: no state there), or why it could not be read. */
export type PulledState = { readonly state: unknown } | { readonly error: string };

export interface PullOptions {
  /** The project directory (the folders and logs go under its `.hoplab`). */
  readonly cwd: string;
  /** A local AWS emulator: an s3 backend is read from its S3, as emulator runs keep it. @default - the configured backend */
  readonly awsEndpoint?: string;
  /** Stacks read at once. @default 4 */
  readonly parallelism?: number;
}

/** `terraform state pull` of each stack (see the module's comment); resolves per stack, never rejects. */
export async function pullStates(backend: BackendConfig, stacks: readonly string[], options: PullOptions): Promise<Map<string, PulledState>> {
  // Loaded when a remote state is read, not when a command that may read one starts (cost, synth and most
  // commands of a lab with local state never do): cdktf is most of a command's start-up. esbuild bundles a
  // require() of a literal path and evaluates it on first call.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { App, TerraformStack } = require('cdktf') as typeof Cdktf;
  const { addStateBackend, EMULATOR_STATE_DIR, ensureEmulatorStateBucket } = require('../../stacks/state-backend') as typeof StateBackend;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const outdir = join(options.cwd, '.hoplab', 'state-read');
  const logDir = join(options.cwd, '.hoplab', 'logs');
  mkdirSync(logDir, { recursive: true });
  const app = new App({ outdir, stackTraces: false });
  const emulator = options.awsEndpoint ? { endpoint: options.awsEndpoint, stateDir: join(options.cwd, EMULATOR_STATE_DIR) } : undefined;
  for (const stack of stacks) addStateBackend(new TerraformStack(app, stack), backend, stack, emulator);
  app.synth();
  const env = labTerraformEnv(options.cwd, options.awsEndpoint);
  // A fresh emulator has no bucket yet (its first deploy makes it): its s3 backend would fail to init, not find nothing.
  if (options.awsEndpoint && backend.type === 's3' && stacks.length > 0) {
    try {
      await ensureEmulatorStateBucket(options.awsEndpoint, backend.bucket, backend.region);
    } catch (error) {
      const reason: PulledState = { error: error instanceof Error ? error.message : String(error) };
      return new Map(stacks.map((stack) => [stack, reason]));
    }
  }
  let inits: Promise<unknown> = Promise.resolve();
  const pull = async (stack: string): Promise<PulledState> => {
    const run = (args: string[]) =>
      runTerraform(args, { cwd: join(outdir, 'stacks', stack), env, logFile: join(logDir, `${stack}.state.log`), processGroup: 'shared', logStdout: args[0] !== 'state' });
    // -reconfigure: the backend block may have changed since the last read (a new bucket); nothing is migrated.
    const next = inits.then(() => run(['init', '-input=false', '-reconfigure', '-no-color']));
    inits = next.catch(() => undefined);
    const init = await next;
    if (init.code !== 0) return { error: `terraform init of its backend failed: ${lastError(init.stderr, init.tail)}` };
    const pulled = await run(['state', 'pull']);
    if (pulled.code !== 0) return { error: `terraform state pull failed: ${lastError(pulled.stderr, pulled.tail)}` };
    if (pulled.stdout.trim() === '') return { state: undefined };
    try {
      return { state: JSON.parse(pulled.stdout) as unknown };
    } catch {
      return { error: 'terraform state pull printed something that is not a state' };
    }
  };
  const results = new Map<string, PulledState>();
  const queue = [...stacks];
  const worker = async () => {
    for (let stack = queue.shift(); stack !== undefined; stack = queue.shift()) results.set(stack, await pull(stack));
  };
  await Promise.all(Array.from({ length: Math.min(options.parallelism ?? 4, stacks.length) }, worker));
  return results;
}

/** Terraform's first error line (`Error: ...`), else its last line. */
function lastError(stderr: string, tail: readonly string[]): string {
  const lines = `${stderr}\n${tail.join('\n')}`.split('\n').map((l) => l.trim());
  return lines.find((l) => l.startsWith('Error:'))?.replace(/^Error:\s*/, '') ?? lines.filter((l) => l !== '').pop() ?? 'no output';
}
