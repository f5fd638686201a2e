import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, LocalBackend } from 'cdktf';
import { LabConfig } from '../../config/schema';
import { findAwsLeftovers } from '../../lab/leftovers/aws-leftovers';
import { formatLeftover, Leftover } from '../../lab/leftovers/leftover';
import { labNames } from '../../model/names';
import { AwsClusterStack } from '../../stacks/aws-cluster-stack';
import { Emulator, externalEmulator, startMoto } from './moto';
import { Progress } from './progress';
import { TerraformRunner, writeMirrorCliConfig } from '../../kit/terraform/terraform';
import { findProviderMirror } from '../../lab/files/terraform-env';
import { plural } from '../../kit/terminal/terminal';

export interface LocalLabOptions {
  /** The validated lab config. Required. */
  readonly config: LabConfig;
  /**
   * Endpoint of an emulator that is already running; it is used and left running.
   * @default - start moto on a free loopback port and stop it afterwards
   */
  readonly endpoint?: string;
  /**
   * Filesystem provider mirror for `terraform init`.
   * @default - `HOPLAB_PROVIDER_MIRROR`, else the first known place holding hashicorp/aws 5.100.0
   */
  readonly providerMirror?: string;
  /** Where progress lines go. @default stdout */
  readonly write?: (line: string) => void;
  /** Receives every line Terraform prints (they all go to the run's terraform.log too). @default - nothing */
  readonly onTerraformLine?: (line: string) => void;
  /** Resolves when the run should stop early (Ctrl-C); cleanup still runs. @default never */
  readonly abort?: AbortSignal;
  /** Keep the working directory (synthesized stack, state, logs) even on success. @default false */
  readonly keepWorkDir?: boolean;
}

/** What a local run did. */
export interface LocalLabResult {
  /** `terraform output -json` of the applied stack, name -> value. */
  readonly outputs: Record<string, unknown>;
  /** Resource addresses Terraform created. */
  readonly resources: readonly string[];
  /** Resources of the environment still in the emulator after destroy (empty on success). */
  readonly leftovers: readonly Leftover[];
  /** Whether the plan right after apply was empty (no drift). */
  readonly replanEmpty: boolean;
  /** Add-ons left out because the emulator has no API for them. */
  readonly addonsLeftOut: readonly string[];
  /** The emulator's endpoint. */
  readonly endpoint: string;
  /** The working directory (removed unless kept or the run failed). */
  readonly workDir: string;
}

const STEPS = 8;

/**
 * The embedded default: a real Terraform run of `<env>-aws-cluster` against a
 * local AWS emulator. Starts moto (or uses `endpoint`), synthesizes the stack
 * with the provider pointed at it, runs init from a provider mirror, apply,
 * reads the outputs, checks a re-plan is empty, destroys, checks nothing of
 * the environment is left, and stops what it started. On failure or abort it
 * still destroys what was applied and stops the emulator.
 */
export async function runLocalLab(options: LocalLabOptions): Promise<LocalLabResult> {
  const { config } = options;
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const progress = new Progress(STEPS, write);
  const names = labNames(config);
  const workDir = mkdtempSync(join(tmpdir(), `hoplab-local-${config.name}-`));
  const logFile = join(workDir, 'terraform.log');
  const mirror = options.providerMirror ?? findProviderMirror();
  let emulator: Emulator | undefined;
  let runner: TerraformRunner | undefined;
  let applied = false;
  let destroyed = false;
  let succeeded = false;
  const onAbort = () => runner?.interrupt();
  options.abort?.addEventListener('abort', onAbort);
  const checkAbort = () => {
    if (options.abort?.aborted) throw new Error('interrupted');
  };

  try {
    emulator = await progress.run(options.endpoint ? `use the AWS emulator at ${options.endpoint}` : 'start the AWS emulator (moto) on loopback', () =>
      options.endpoint ? externalEmulator(options.endpoint) : startMoto(),
    );
    const endpoint = emulator.endpoint;
    progress.note(`      emulator: ${endpoint} (${emulator.owned ? 'started by hoplab, stopped at the end' : 'already running, left running'})`);
    checkAbort();

    const stack = await progress.run(`synthesize ${names.awsClusterStack} for the emulator`, async () => {
      const app = new App({ outdir: join(workDir, 'cdktf.out') });
      const synthesized = new AwsClusterStack(app, names.awsClusterStack, { config, emulator: { endpoint } });
      new LocalBackend(synthesized, { path: join(workDir, 'terraform.tfstate') });
      app.synth();
      return synthesized;
    });
    if (stack.addonsLeftOut.length > 0) {
      progress.note(`      note: left out in emulator mode (moto has no EKS add-on API): ${stack.addonsLeftOut.join(', ')}; real deploys keep them`);
    }
    checkAbort();

    const env: NodeJS.ProcessEnv = {};
    if (mirror) {
      Object.assign(env, writeMirrorCliConfig(join(workDir, 'terraform.rc'), mirror));
    } else {
      progress.note('      note: no provider mirror found (set HOPLAB_PROVIDER_MIRROR); terraform init will try the registry');
    }
    let done = 0;
    runner = new TerraformRunner({
      cwd: join(workDir, 'cdktf.out', 'stacks', names.awsClusterStack),
      env,
      logFile,
      onLine: (line) => {
        if (/: (Creation|Destruction) complete after/.test(line)) done += 1;
        options.onTerraformLine?.(line);
      },
    });
    const tf = runner;

    await progress.run(`terraform init${mirror ? ` (providers from ${mirror})` : ''}`, () => tf.run(['init', '-input=false', '-no-color']));
    checkAbort();

    applied = true;
    await progress.run('terraform apply', (tick) => {
      done = 0;
      const timer = setInterval(() => tick(`${done} resources created`), 1000);
      return tf.run(['apply', '-auto-approve', '-input=false', '-no-color']).finally(() => clearInterval(timer));
    });
    checkAbort();

    const outputs = await progress.run('read the outputs', async () => {
      const raw = JSON.parse(await tf.run(['output', '-json', '-no-color'])) as Record<string, { value: unknown }>;
      return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, v.value]));
    });
    const resources = (await tf.run(['state', 'list', '-no-color'])).split('\n').filter((l) => l.trim() !== '');
    const width = Math.max(...Object.keys(outputs).map((k) => k.length));
    for (const [name, value] of Object.entries(outputs)) {
      progress.note(`      ${name.padEnd(width)}  ${typeof value === 'string' ? value : JSON.stringify(value)}`);
    }
    checkAbort();

    const replanEmpty = await progress.run('terraform plan again (must show no changes)', async () => {
      try {
        await tf.run(['plan', '-detailed-exitcode', '-input=false', '-no-color', '-lock=false']);
        return true;
      } catch (error) {
        if (String(error).includes('failed (2)')) return false;
        throw error;
      }
    });
    if (!replanEmpty) {
      throw new Error(`the plan after apply is not empty: the stack drifts against the emulator (see ${logFile})`);
    }
    checkAbort();

    await progress.run('terraform destroy', (tick) => {
      done = 0;
      const timer = setInterval(() => tick(`${done} of ${plural(resources.length, 'resource')} destroyed`), 1000);
      return tf.run(['destroy', '-auto-approve', '-input=false', '-no-color']).finally(() => clearInterval(timer));
    });
    destroyed = true;

    const leftovers = await progress.run(`check the emulator for anything left of "${config.name}"`, () =>
      findAwsLeftovers({ env: config.name, clusterName: names.eksCluster, region: config.aws.region, endpoint }),
    );
    if (leftovers.length > 0) {
      throw new Error(`destroy left ${plural(leftovers.length, 'resource')} in the emulator:\n${leftovers.map((l) => `  ${formatLeftover(l)}`).join('\n')}`);
    }
    succeeded = true;
    return { outputs, resources, leftovers, replanEmpty, addonsLeftOut: stack.addonsLeftOut, endpoint, workDir };
  } finally {
    options.abort?.removeEventListener('abort', onAbort);
    if (applied && !destroyed && runner) {
      write('      cleanup: destroying what was applied ...');
      try {
        await runner.run(['destroy', '-auto-approve', '-input=false', '-no-color', '-lock=false']);
        write('      cleanup: destroyed');
      } catch (error) {
        write(`      cleanup: destroy failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (emulator?.owned) {
      await emulator.stop();
      write('      cleanup: emulator stopped');
    }
    if (succeeded && !options.keepWorkDir) {
      rmSync(workDir, { recursive: true, force: true });
    } else {
      writeFileSync(join(workDir, 'README.txt'), 'hoplab local run: synthesized stack, state and terraform.log\n');
      write(`      kept for inspection: ${workDir}`);
    }
  }
}
