/**
 * Finds the synthesized stacks in a cdktf output directory (`cdktf.out`) and
 * sorts them into environments: `<env>-<aws|gcp>-<cluster|lb>`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Cloud } from '../../model/contract';
import { parseJson } from '../../config/json-syntax';
import { isRecord, SynthStack } from '../../kit/terraform/terraform-json';

/** The stacks of one environment and cloud found in the directory. */
export interface CloudStacks {
  readonly env: string;
  readonly cloud: Cloud;
  readonly cluster?: SynthStack;
  readonly lb?: SynthStack;
}

export interface SynthDir {
  readonly dir: string;
  /** Sorted by environment, then cloud (aws before gcp). */
  readonly clouds: readonly CloudStacks[];
  /** Stack names that do not follow `<env>-<cloud>-<kind>`. */
  readonly ignored: readonly string[];
}

const STACK_NAME = /^(.+)-(aws|gcp)-(cluster|lb)$/;

const SYNTH_HINT = 'synthesize first with `npm run synth` (or `npx cdktf synth`), or pass --dir';

/** Splits `<env>-<cloud>-<kind>`; `undefined` for other names. */
export function parseStackName(name: string): { env: string; cloud: Cloud; kind: 'cluster' | 'lb' } | undefined {
  const match = STACK_NAME.exec(name);
  return match ? { env: match[1], cloud: match[2] as Cloud, kind: match[3] as 'cluster' | 'lb' } : undefined;
}

/** Reads one synthesized stack's `cdk.tf.json`, saying what to do when it cannot. */
export function readStack(name: string, file: string): SynthStack {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}; ${SYNTH_HINT}`);
  }
  const json = parseJson(text, (reason) => new Error(`${file} ${reason}; synthesize again`));
  if (!isRecord(json)) {
    throw new Error(`${file} is not a synthesized Terraform stack (expected a JSON object); synthesize again`);
  }
  return { name, file, json };
}

/** Reads every `stacks/<name>/cdk.tf.json` under `dir`. */
export function readSynthDir(dir: string): SynthDir {
  const stacksDir = join(dir, 'stacks');
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new Error(`no synthesized app at ${dir}: the directory does not exist; ${SYNTH_HINT}`);
  }
  if (!existsSync(stacksDir) || !statSync(stacksDir).isDirectory()) {
    throw new Error(`no synthesized stacks in ${dir}: ${stacksDir} does not exist; ${SYNTH_HINT}`);
  }
  const names = readdirSync(stacksDir)
    .filter((name) => existsSync(join(stacksDir, name, 'cdk.tf.json')))
    .sort();
  if (names.length === 0) {
    throw new Error(`no synthesized stacks in ${stacksDir} (no */cdk.tf.json); ${SYNTH_HINT}`);
  }
  const byKey = new Map<string, { env: string; cloud: Cloud; cluster?: SynthStack; lb?: SynthStack }>();
  const ignored: string[] = [];
  for (const name of names) {
    const parsed = parseStackName(name);
    if (!parsed) {
      ignored.push(name);
      continue;
    }
    const key = `${parsed.env}\u0000${parsed.cloud}`;
    const entry = byKey.get(key) ?? { env: parsed.env, cloud: parsed.cloud };
    entry[parsed.kind] = readStack(name, join(stacksDir, name, 'cdk.tf.json'));
    byKey.set(key, entry);
  }
  if (byKey.size === 0) {
    throw new Error(`no hoplab stacks in ${stacksDir}: found ${ignored.join(', ')}, expected names like lab-aws-cluster, lab-aws-lb, lab-gcp-cluster, lab-gcp-lb`);
  }
  const clouds = [...byKey.values()].sort((a, b) => (a.env === b.env ? a.cloud.localeCompare(b.cloud) : a.env.localeCompare(b.env)));
  return { dir, clouds, ignored };
}
