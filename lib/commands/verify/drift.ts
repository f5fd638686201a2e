/**
 * Drift: `terraform plan -detailed-exitcode` of a deployed stack must show no
 * changes. A non-empty plan is read back with `terraform show -json` and
 * listed resource by resource with the attributes that differ.
 */
import { join } from 'node:path';
import { runTerraform, TerraformResult } from '../../kit/terraform/terraform';

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
  /** What an apply would change (`resource_changes` whose actions are not no-op or read): the drift. */
  readonly resources: readonly DriftedResource[];
  /**
   * Refresh-only: objects changed outside Terraform (`resource_drift`) in the
   * attributes the plan depends on (`relevant_attributes`), listed with those
   * attributes only. Differences nothing depends on (a provider filling
   * `tags` from null to `{}`, route tables' `route` filled by `aws_route`
   * resources, ...) are left out: they change nothing on apply.
   */
  readonly outside_changes: readonly DriftedResource[];
  /** Outputs whose value an apply would change. */
  readonly outputs?: readonly string[];
  readonly error: string | null;
  readonly seconds: number;
}

/**
 * Runs terraform for verify; resolves however it ends (never rejects on a non-zero exit). In
 * hoplab's process group: verify's plans only read, and a terminal's Ctrl-C reaches Terraform
 * itself. `onLine` gets each output line as it comes.
 */
export function terraform(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, logFile: string, onLine?: (line: string) => void): Promise<TerraformResult> {
  return runTerraform(args, { cwd, env, logFile, onLine, processGroup: 'shared' });
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Whether `value` (an `after_unknown` tree) marks anything unknown, at any depth. */
function hasUnknown(value: unknown): boolean {
  if (value === true) return true;
  if (Array.isArray(value)) return value.some(hasUnknown);
  return isObject(value) ? Object.values(value).some(hasUnknown) : false;
}

/** Top-level attributes that differ between `before` and `after`, or that `after_unknown` marks unknown at any depth. */
export function differingAttributes(change: { before?: unknown; after?: unknown; after_unknown?: unknown }): string[] {
  const before = isObject(change.before) ? change.before : {};
  const after = isObject(change.after) ? change.after : {};
  const unknown = isObject(change.after_unknown) ? change.after_unknown : {};
  const keys = new Set([...Object.keys(before), ...Object.keys(after), ...Object.keys(unknown)]);
  return [...keys].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]) || hasUnknown(unknown[k])).sort();
}

interface PlanChange {
  readonly address?: string;
  readonly change?: { readonly actions?: readonly string[]; readonly before?: unknown; readonly after?: unknown; readonly after_unknown?: unknown };
}

/** The parts of a `terraform show -json` plan that drift is read from. */
export interface PlanJson {
  readonly resource_changes?: readonly PlanChange[];
  readonly resource_drift?: readonly PlanChange[];
  /** What the plan's changes depend on: `{ resource: "aws_vpc.vpc", attribute: ["tags"] }`. */
  readonly relevant_attributes?: readonly { readonly resource?: string; readonly attribute?: readonly unknown[] }[];
  readonly output_changes?: Readonly<Record<string, { readonly actions?: readonly string[] }>>;
}

const changes = (c: PlanChange) => {
  const actions = c.change?.actions ?? [];
  return !(actions.length === 1 && (actions[0] === 'no-op' || actions[0] === 'read'));
};

/**
 * A plan's drift: what an apply would change (`resources`), and, labelled
 * apart, the refresh-only differences the plan depends on (`outside`), and
 * the outputs an apply would change.
 */
export function changedResources(plan: PlanJson): { resources: DriftedResource[]; outside: DriftedResource[]; outputs: string[] } {
  const resources = (plan.resource_changes ?? [])
    .filter(changes)
    .map((c) => ({ address: c.address ?? '?', actions: (c.change?.actions ?? []).join(','), attributes: c.change ? differingAttributes(c.change) : [] }));
  // relevant_attributes: per resource, the top-level attributes the plan depends on (a path's first step);
  // an empty path is the whole object ('*'). No relevant_attributes (Terraform leaves it out): nothing depends on drift.
  const relevant = new Map<string, Set<string>>();
  for (const r of plan.relevant_attributes ?? []) {
    if (typeof r.resource !== 'string') continue;
    const first = r.attribute?.[0];
    const set = relevant.get(r.resource) ?? new Set<string>();
    set.add(typeof first === 'string' ? first : '*');
    relevant.set(r.resource, set);
  }
  const outside = (plan.resource_drift ?? []).filter(changes).flatMap((c) => {
    const address = c.address ?? '?';
    const wanted = relevant.get(address);
    if (!wanted) return [];
    const attributes = c.change ? differingAttributes(c.change).filter((a) => wanted.has('*') || wanted.has(a)) : [];
    return attributes.length > 0 ? [{ address, actions: (c.change?.actions ?? []).join(','), attributes }] : [];
  });
  const outputs = Object.entries(plan.output_changes ?? {})
    .filter(([, c]) => !(c.actions?.length === 1 && c.actions[0] === 'no-op'))
    .map(([name]) => name)
    .sort();
  return { resources, outside, outputs };
}

/** What a drift check tells as it goes (verify's live progress). */
export interface DriftProgress {
  /** Each line of Terraform's output. */
  readonly onLine?: (line: string) => void;
  /** `init`, then `plan`, then `show`. */
  readonly onPhase?: (phase: 'init' | 'plan' | 'show') => void;
}

/** Plans one synthesized stack (already applied) and says whether it drifted. Initializes it first. */
export async function checkDrift(stackDir: string, stack: string, env: NodeJS.ProcessEnv, logFile: string, progress: DriftProgress = {}): Promise<DriftResult> {
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
  progress.onPhase?.('init');
  const init = await terraform(['init', '-input=false', '-no-color'], stackDir, env, logFile);
  if (init.code !== 0) return failed('terraform init failed', init);
  const planFile = join(stackDir, 'hoplab-verify.tfplan');
  progress.onPhase?.('plan');
  const plan = await terraform(['plan', '-detailed-exitcode', '-input=false', '-no-color', '-lock=false', `-out=${planFile}`], stackDir, env, logFile, progress.onLine);
  if (plan.code === 0) return { stack, status: 'clean', resources: [], outside_changes: [], error: null, seconds: seconds() };
  if (plan.code !== 2) return failed('terraform plan failed', plan);
  progress.onPhase?.('show');
  const show = await terraform(['show', '-json', '-no-color', planFile], stackDir, env, logFile);
  if (show.code !== 0) return failed('terraform show failed', show);
  const { resources, outside, outputs } = changedResources(JSON.parse(show.stdout) as PlanJson);
  return { stack, status: 'drift', resources, outside_changes: outside, outputs, error: null, seconds: seconds() };
}
