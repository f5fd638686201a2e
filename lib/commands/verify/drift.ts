/**
 * Drift: `terraform plan -detailed-exitcode` of a deployed stack must show no
 * changes. A non-empty plan is read back with `terraform show -json` and
 * listed resource by resource with the attributes that differ.
 */
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { track } from '../../plumbing/terraform/child-processes';

export interface DriftedResource {
  /** Terraform address, e.g. `aws_vpc.vpc_vpc_ABC`. */
  readonly address: string;
  /** Plan actions: `update`, `create`, `delete`, `delete,create` ... */
  readonly actions: string;
  /** Top-level attributes whose planned value differs from the state (or becomes unknown). */
  readonly attributes: readonly string[];
}

export interface DriftResult {
  readonly stack: string;
  /** `clean`: empty plan. `drift`: changes planned. `error`: the plan could not run. */
  readonly status: 'clean' | 'drift' | 'error';
  readonly resources: readonly DriftedResource[];
  /** Changes made outside Terraform that the plan noticed (`resource_drift`), listed the same way. */
  readonly outside_changes: readonly DriftedResource[];
  readonly error: string | null;
  readonly seconds: number;
}

/** Runs terraform; resolves with its exit code and output (never rejects on a non-zero exit). */
export function terraform(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, logFile: string): Promise<{ code: number; stdout: string; stderr: string }> {
  appendFileSync(logFile, `\n$ terraform ${args.join(' ')}\n`);
  return new Promise((resolve) => {
    const child = track(spawn('terraform', [...args], { cwd, env: { ...process.env, TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] }));
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr?.on('data', (c: Buffer) => {
      stderr += c.toString();
      appendFileSync(logFile, c.toString());
    });
    child.on('error', (error) => resolve({ code: 127, stdout, stderr: `could not run terraform: ${error.message}` }));
    child.on('close', (code) => {
      if (!args.includes('-json')) appendFileSync(logFile, stdout);
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Top-level attributes that differ between `before` and `after`, or that `after_unknown` marks unknown. */
export function differingAttributes(change: { before?: unknown; after?: unknown; after_unknown?: unknown }): string[] {
  const before = isObject(change.before) ? change.before : {};
  const after = isObject(change.after) ? change.after : {};
  const unknown = isObject(change.after_unknown) ? change.after_unknown : {};
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  const hasUnknown = (v: unknown): boolean => v === true || (Array.isArray(v) ? v.some(hasUnknown) : isObject(v) ? Object.values(v).some(hasUnknown) : false);
  return [...keys].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]) || hasUnknown(unknown[k])).sort();
}

interface PlanChange {
  readonly address?: string;
  readonly change?: { readonly actions?: readonly string[]; readonly before?: unknown; readonly after?: unknown; readonly after_unknown?: unknown };
}

/** The changed resources of a `terraform show -json` plan. */
export function changedResources(plan: { resource_changes?: readonly PlanChange[]; resource_drift?: readonly PlanChange[] }): { resources: DriftedResource[]; outside: DriftedResource[] } {
  const list = (changes: readonly PlanChange[] | undefined) =>
    (changes ?? [])
      .filter((c) => {
        const actions = c.change?.actions ?? [];
        return !(actions.length === 1 && (actions[0] === 'no-op' || actions[0] === 'read'));
      })
      .map((c) => ({ address: c.address ?? '?', actions: (c.change?.actions ?? []).join(','), attributes: c.change ? differingAttributes(c.change) : [] }));
  return { resources: list(plan.resource_changes), outside: list(plan.resource_drift) };
}

/** Plans one synthesized stack (already applied) and says whether it drifted. Initializes it first. */
export async function checkDrift(stackDir: string, stack: string, env: NodeJS.ProcessEnv, logFile: string): Promise<DriftResult> {
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 100) / 10;
  const failed = (what: string, out: { stderr: string; stdout: string }): DriftResult => ({
    stack,
    status: 'error',
    resources: [],
    outside_changes: [],
    error: `${what}: ${(out.stderr || out.stdout)
      .trim()
      .split('\n')
      .filter((l) => l.trim())
      .slice(-6)
      .join(' | ')} (log: ${logFile})`,
    seconds: seconds(),
  });
  const init = await terraform(['init', '-input=false', '-no-color'], stackDir, env, logFile);
  if (init.code !== 0) return failed('terraform init failed', init);
  const planFile = join(stackDir, 'hoplab-verify.tfplan');
  const plan = await terraform(['plan', '-detailed-exitcode', '-input=false', '-no-color', '-lock=false', `-out=${planFile}`], stackDir, env, logFile);
  if (plan.code === 0) return { stack, status: 'clean', resources: [], outside_changes: [], error: null, seconds: seconds() };
  if (plan.code !== 2) return failed('terraform plan failed', plan);
  const show = await terraform(['show', '-json', '-no-color', planFile], stackDir, env, logFile);
  if (show.code !== 0) return failed('terraform show failed', show);
  const { resources, outside } = changedResources(JSON.parse(show.stdout) as Parameters<typeof changedResources>[0]);
  return { stack, status: 'drift', resources, outside_changes: outside, error: null, seconds: seconds() };
}
