/**
 * Whether anything is deployed, known without Terraform or credentials where the state is a
 * local file: each synthesized stack names its backend in its `cdk.tf.json`; a `local` one is a
 * file that either holds resources or does not. Commands that would otherwise run Terraform for
 * every stack (compare's `cdktf output`, teardown's destroys, verify's plans) ask this first and
 * stop in one line when nothing is there. Remote state (s3, gcs) cannot be read this way: it
 * counts as unknown, and the command goes on as before.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BackendConfig } from '../../config/schema';
import { chooseStatePlacement, EMULATOR_STATE_DIR } from '../../stacks/state-placement';
import { isRecord } from '../../kit/terraform/terraform-json';

/** What the stacks' state says. */
interface StateSurvey {
  /** Stacks whose local state file holds at least one resource. */
  readonly deployed: readonly string[];
  /** Stacks whose local state file is missing or holds no resources. */
  readonly empty: readonly string[];
  /** Stacks with remote state, or whose stack or state could not be read. */
  readonly unknown: readonly string[];
}

/** The local state file of `stack` in `synthDir` (`cdktf.out`), or undefined when its backend is not local. */
export function localStatePath(synthDir: string, stack: string): string | undefined {
  try {
    const json: unknown = JSON.parse(readFileSync(join(synthDir, 'stacks', stack, 'cdk.tf.json'), 'utf8'));
    const terraform = isRecord(json) ? json.terraform : undefined;
    const backend = isRecord(terraform) ? terraform.backend : undefined;
    // cdktf's default for a stack without a backend block: terraform.<stack>.tfstate in its working directory.
    if (backend === undefined) return join(synthDir, 'stacks', stack, `terraform.${stack}.tfstate`);
    const local = isRecord(backend) ? backend.local : undefined;
    if (!isRecord(local)) return undefined;
    return typeof local.path === 'string' ? local.path : join(synthDir, 'stacks', stack, 'terraform.tfstate');
  } catch {
    return undefined;
  }
}

/**
 * Where the state of `stack` is a local file, before anything is synthesized (teardown asks
 * before it synthesizes): as {@link chooseStatePlacement} places it, in the project directory
 * `cwd`, or the emulator's folder there; undefined for s3 and gcs.
 */
export function plannedStatePath(backend: BackendConfig, stack: string, cwd: string, awsEndpoint?: string): string | undefined {
  const placement = chooseStatePlacement(backend, stack, awsEndpoint ? { endpoint: awsEndpoint, stateDir: join(cwd, EMULATOR_STATE_DIR) } : undefined);
  if (placement.kind === 'local') return join(cwd, `terraform.${stack}.tfstate`);
  return placement.kind === 'emulator-local' ? placement.path : undefined;
}

/** One line when none of `stacks` has state with resources (all local), else undefined; for teardown before it synthesizes. */
export function nothingDeployedFor(backend: BackendConfig, stacks: readonly string[], cwd: string, awsEndpoint?: string): string | undefined {
  return nothingLine(stacks, (stack) => plannedStatePath(backend, stack, cwd, awsEndpoint));
}

function surveyFiles(stacks: readonly string[], pathOf: (stack: string) => string | undefined): StateSurvey {
  const deployed: string[] = [];
  const empty: string[] = [];
  const unknown: string[] = [];
  for (const stack of stacks) {
    const path = pathOf(stack);
    if (path === undefined) {
      unknown.push(stack);
    } else if (!existsSync(path)) {
      empty.push(stack);
    } else {
      try {
        const state: unknown = JSON.parse(readFileSync(path, 'utf8'));
        const resources = isRecord(state) ? state.resources : undefined;
        (Array.isArray(resources) && resources.length > 0 ? deployed : empty).push(stack);
      } catch {
        unknown.push(stack);
      }
    }
  }
  return { deployed, empty, unknown };
}

/** One line when nothing is deployed (every stack has local state, none with resources), else undefined. */
export function nothingDeployed(synthDir: string, stacks: readonly string[]): string | undefined {
  return nothingLine(stacks, (stack) => localStatePath(synthDir, stack));
}

function nothingLine(stacks: readonly string[], pathOf: (stack: string) => string | undefined): string | undefined {
  if (stacks.length === 0) return undefined;
  const survey = surveyFiles(stacks, pathOf);
  if (survey.deployed.length > 0 || survey.unknown.length > 0) return undefined;
  const where = pathOf(stacks[0]);
  return `nothing is deployed: none of the ${stacks.length} stack${stacks.length === 1 ? '' : 's'} (${stacks.join(', ')}) has state with resources (local state, e.g. ${where})`;
}
