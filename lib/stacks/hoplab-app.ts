// First: every command that synthesizes comes through here (see drop-dep0044.ts).
import './drop-dep0044';
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { App, TerraformStack } from 'cdktf';
import { AwsEmulator } from '../constructs/aws/emulator';
import { LOCAL_CHARTS_FOLDER } from '../constructs/k8s/local-chart';
import { LabConfig } from '../config/schema';
import { labEnvironments } from '../config/environments';
import { labNames } from '../model/names';
import { AwsSlot, GcpSlot } from '../model/slots';
import { placementConfigured } from '../config/placement-rules';
import { AwsClusterStack } from './aws-cluster-stack';
import { AwsLbStack } from './aws-lb-stack';
import { GcpClusterStack } from './gcp-cluster-stack';
import { GcpLbStack } from './gcp-lb-stack';
import { addStateBackend, EMULATOR_STATE_DIR, EmulatorState } from './state-backend';
import { refuseErroredState } from './errored-state';

/** The four stacks of one environment. AWS and GCP never depend on each other. */
export interface LabStacks {
  readonly env: string;
  readonly awsCluster: AwsClusterStack;
  readonly awsLb: AwsLbStack;
  readonly gcpCluster: GcpClusterStack;
  readonly gcpLb: GcpLbStack;
}

/**
 * Adds every stack of every environment of the lab to `app`: per environment
 * (one per attendee, or one named `name`) `<env>-aws-cluster`, `<env>-aws-lb`,
 * `<env>-gcp-cluster`, `<env>-gcp-lb`, each with its state where `backend`
 * says. The config must be validated (see `loadConfig`).
 */
export interface AddLabOptions {
  /**
   * Point the `<env>-aws-cluster` stacks at a local AWS emulator (see `npm run local`);
   * only those stacks can then be applied. Every stack's state then goes to the
   * emulator or to `emulatorStateDir`, never to the configured backend (see `chooseStatePlacement`).
   * @default - real AWS
   */
  readonly awsEmulator?: AwsEmulator;
  /**
   * Directory for the local state of emulator runs (only used with `awsEmulator`).
   * @default - `.hoplab/emulator` under the current directory
   */
  readonly emulatorStateDir?: string;
  /**
   * Each environment's slot per cloud, from placement (`placeLab`, lib/lab/placement): its stacks take
   * their region, zones, account role and project from it, and export `placement`. Required when the
   * config places environments (aws.regions, aws.accounts, gcp.regions, gcp.projects, placement, a pin), and
   * then names every environment; without placement in the config, only the environments deployed elsewhere.
   * @default - every environment in aws.region and gcp.project, no `placement` output (a config without placement)
   */
  readonly slots?: { readonly aws: ReadonlyMap<string, AwsSlot>; readonly gcp: ReadonlyMap<string, GcpSlot> };
}

export function addLab(app: App, config: LabConfig, options: AddLabOptions = {}): LabStacks[] {
  const placed = placementConfigured(config);
  if (placed && !options.slots) {
    throw new Error('addLab: this config places environments (aws.regions, aws.accounts, gcp.regions, gcp.projects, placement or a pin): pass the slots of placeLab (lib/lab/placement)');
  }
  return labEnvironments(config).map((env) => {
    const names = labNames(env);
    const emulatorState: EmulatorState | undefined = options.awsEmulator ? { endpoint: options.awsEmulator.endpoint, stateDir: resolve(options.emulatorStateDir ?? EMULATOR_STATE_DIR) } : undefined;
    const withBackend = <T extends TerraformStack>(stack: T, name: string): T => {
      addStateBackend(stack, env.backend, name, emulatorState);
      return stack;
    };
    const slot = <S>(slots: ReadonlyMap<string, S> | undefined): S | undefined => {
      const given = slots?.get(env.name);
      if (placed && !given) throw new Error(`addLab: no slot for environment ${env.name}`);
      return given;
    };
    const awsCluster = withBackend(new AwsClusterStack(app, names.awsClusterStack, { config: env, emulator: options.awsEmulator, slot: slot(options.slots?.aws) }), names.awsClusterStack);
    const awsLb = withBackend(new AwsLbStack(app, names.awsLbStack, { config: env, cluster: awsCluster }), names.awsLbStack);
    const gcpCluster = withBackend(new GcpClusterStack(app, names.gcpClusterStack, { config: env, slot: slot(options.slots?.gcp) }), names.gcpClusterStack);
    const gcpLb = withBackend(new GcpLbStack(app, names.gcpLbStack, { config: env, cluster: gcpCluster }), names.gcpLbStack);
    return { env: env.name, awsCluster, awsLb, gcpCluster, gcpLb };
  });
}

/**
 * Whether `outdir` is the directory cdktf-cli (`npx cdktf synth|diff|deploy`)
 * runs this app for: it sets CDKTF_OUTDIR for the app it starts.
 */
export function synthesizedForCdktfCli(outdir: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return env.CDKTF_OUTDIR !== undefined && env.CDKTF_OUTDIR !== '' && resolve(env.CDKTF_OUTDIR) === resolve(outdir);
}

/**
 * Synthesizes `app` after removing the stack folders of an earlier config (an
 * attendee since removed, say), so nothing stale is explained or deployed,
 * and the local chart copies of an earlier synth (`charts/<name>-<hash>`), so
 * the only ones left are those this synth's stacks point at.
 * State is not in these folders and stays where it is; a state Terraform could
 * not write to its backend is (`errored.tfstate`), and synth then refuses.
 *
 * Under cdktf-cli only this synth's own stack folders are replaced: cdktf-cli
 * lists `stacks/` before it starts the app and, once the app is done, deletes
 * each listed folder the new manifest does not name, with `fs.rmSync` and no
 * `force` (@cdktf/cli-core's SynthStack.synth). A folder this function had
 * already removed made that fail once after every change of the environments
 * (`ENOENT: no such file or directory, lstat 'cdktf.out/stacks/lab-aws-cluster'`);
 * cdktf-cli removes those folders itself.
 */
export function synthFresh(app: App, env: NodeJS.ProcessEnv = process.env): void {
  refuseErroredState(app.outdir);
  const stacks = join(app.outdir, 'stacks');
  if (synthesizedForCdktfCli(app.outdir, env)) {
    for (const stack of app.node.children.filter((c): c is TerraformStack => TerraformStack.isStack(c))) {
      rmSync(join(stacks, stack.node.id), { recursive: true, force: true });
    }
  } else {
    rmSync(stacks, { recursive: true, force: true });
  }
  rmSync(join(app.outdir, LOCAL_CHARTS_FOLDER), { recursive: true, force: true });
  // cdktf creates each stack's folder, but expects `stacks/` to exist.
  mkdirSync(stacks, { recursive: true });
  app.synth();
}
