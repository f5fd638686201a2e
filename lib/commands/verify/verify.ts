/**
 * `verify`: after a deploy, for the selected environments: no drift in any
 * stack, every exposure ready, and each exposure's measured behaviour equal to
 * its claims; with a Markdown and JSON report to keep.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { App } from 'cdktf';
import { CompareCell, compareOutputs, CompareModel, PROBE_STOPPED, probeModel } from '../../lab/probe/compare-model';
import { Limiter } from '../../lab/probe/limiter';
import { READY_WAIT } from '../../lab/probe/flags';
import { WaitClock } from '../../kit/cli/wait-clock';
import { LabOutputs, parseOutputs, readOutputsFile, stacksOnly } from '../../lab/files/outputs';
import { parseStackName } from '../../lab/files/synth-dir';
import { nothingDeployed } from '../../lab/files/local-state';
import { labEnvironments } from '../../config/environments';
import { synthFresh } from '../../stacks/hoplab-app';
import { addPlacedLab } from '../../lab/placement/placed-lab';
import { deployedPlacementProblems, placeDeployed } from '../../lab/placement/deployed-placement';
import { EMULATOR_STATE_DIR } from '../../stacks/state-placement';
import { STACK_KINDS, stackGraph } from '../../lab/selection/stack-graph';
import { LabSelection } from '../../lab/selection/selection';
import { labTerraformEnv } from '../../lab/files/terraform-env';
import { learnPublicAddress, terraformVersionOf } from '../../lab/checks/host-checks';
import { credentialsMissing } from '../../lab/checks/credentials';
import { admitsAnyAddress, inRanges } from '../../model/cidr';
import { OUTSIDE_SOURCES_SEES, outsideSourcesFix } from '../../model/exposure-facts';
import { loopbackAddress } from '../../lab/probe/probe-summary';
import { checkClaims, ClaimCheck } from './claims';
import { checkDrift, DriftResult, terraform } from './drift';
import { ReadyResult, waitReady } from './readiness';
import { driftSummary, INTERRUPTED, LeftOut, renderVerifyMarkdown, verdictOf, VerifyReport } from './verify-report';
import { LiveClock, LiveStatus, SYSTEM_CLOCK } from '../../kit/terminal/live-status';
import { plural, WritableTerminal } from '../../kit/terminal/terminal';
import { ProbeProgress } from '../../lab/probe/progress';
import { describeActivity, TerraformActivity } from '../../kit/terraform/terraform-progress';

export interface VerifyOptions extends LabSelection {
  /** Project directory (cdktf.out, state, .hoplab). @default process.cwd() */
  readonly cwd?: string;
  /** A file of outputs (`cdktf output --outputs-file`, `compare --format json`, or `pipeline --gather`'s); else `terraform output -json` of each stack. */
  readonly outputsFile?: string;
  /** How long each exposure's load balancer is waited for (all of them side by side), ms. */
  readonly waitMs: number;
  readonly probe: { readonly count: number; readonly concurrency: number; readonly timeoutMs: number; readonly myIp?: string };
  /** Where the host's address is learned when --my-ip is not given (tests). */
  readonly myIpUrl?: string;
  /** Report path without extension. @default .hoplab/verify/verify-<timestamp> */
  readonly reportPath?: string;
  /** Progress lines (off a terminal; on one, see `progressStream`). */
  readonly progress: (line: string) => void;
  /**
   * Where to show the running steps live (bin/verify passes process.stderr): redrawn in
   * place when it is a terminal, else a line per step per minute at most through `progress`.
   * @default - lines through `progress`
   */
  readonly progressStream?: WritableTerminal;
  /** The clock of the live progress (tests). @default SYSTEM_CLOCK */
  readonly clock?: LiveClock;
  /** The clock the readiness waits measure and sleep by (tests). @default REAL_WAIT_CLOCK */
  readonly waitClock?: WaitClock;
  /**
   * Ctrl-C (verify's own, or deploy's for its canary): no new plan starts, the readiness waits and
   * probes end at once, and what did not run is left out, saying so (INCOMPLETE, unless something
   * that ran failed). A plan already running finishes (a terminal's Ctrl-C reaches Terraform itself).
   * @default - never
   */
  readonly signal?: AbortSignal;
  /** Why each cloud has no credentials (tests). @default credentialsMissing (STS, and a Google token) */
  readonly credentials?: typeof credentialsMissing;
}

export type { LeftOut, Verdict, VerifyReport } from './verify-report';

function hoplabVersion(cwd: string): string {
  for (const dir of [cwd, resolve(__dirname, '..'), resolve(__dirname, '..', '..')]) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'hoplab' && pkg.version) return pkg.version;
    } catch {
      // try the next
    }
  }
  return 'unknown';
}

/** The emulator runs only `aws-cluster` stacks: the others need providers (helm, kubernetes, google) not installed offline. */
export const EMULATOR_ONLY_WHY = 'HOPLAB_AWS_ENDPOINT is set: the emulator runs only aws-cluster stacks (the others need the helm, kubernetes and google providers)';

/** Terraform's version, asked up front (in `cwd`), so the report names it whenever Terraform runs at all; why not when it cannot be started. */
async function terraformVersion(cwd: string, logDir: string): Promise<{ version: string | null; startError?: string }> {
  const result = await terraform(['version', '-json'], cwd, {}, join(logDir, 'terraform-version.verify.log'));
  if (result.startError) return { version: null, startError: result.startError };
  return { version: (result.code === 0 ? terraformVersionOf(result.stdout) : undefined) ?? null };
}

export async function runVerify(options: VerifyOptions): Promise<VerifyReport> {
  const startedAt = new Date();
  const cwd = resolve(options.cwd ?? process.cwd());
  const logDir = join(cwd, '.hoplab', 'logs');
  mkdirSync(logDir, { recursive: true });
  const tf = await terraformVersion(cwd, logDir);
  try {
    return await verifyAll(options, startedAt, tf);
  } catch (error) {
    // A verify that stops early still leaves its report, saying why.
    const why = error instanceof Error ? error.message : String(error);
    options.progress(`verify stopped early: ${why}`);
    return writeReport(options, startedAt, {
      environments: options.envs ?? labEnvironments(options.config).map((e) => e.name),
      stacks: [],
      versions: { hoplab: hoplabVersion(cwd), terraform: tf.version, providers: {} },
      prober_address: null,
      drift: [],
      readiness: [],
      claims: [],
      problems: [`verify stopped early, nothing was checked: ${why}`],
      left_out: [],
    });
  }
}

async function verifyAll(options: VerifyOptions, startedAt: Date, tf: { readonly version: string | null; readonly startError?: string }): Promise<VerifyReport> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const requested = options.kinds ?? [...STACK_KINDS];
  const kinds = options.awsEndpoint ? requested.filter((k) => k === 'aws-cluster') : [...requested];
  const problems: string[] = [];
  if (kinds.length === 0) throw new Error('HOPLAB_AWS_ENDPOINT is set: only the aws-cluster stacks can run against the emulator; add --stacks aws-cluster');
  const all = labEnvironments(options.config).map((e) => e.name);
  const envs = options.envs ? all.filter((e) => options.envs!.includes(e)) : all;
  // What was asked for and cannot run here is said, and never passes.
  const leftOut: LeftOut[] = [];
  for (const stack of stackGraph(envs, 'deploy', requested).map((t) => t.stack)) {
    if (stackGraph(envs, 'deploy', kinds).some((t) => t.stack === stack)) continue;
    leftOut.push({ check: 'drift', what: stack, why: EMULATOR_ONLY_WHY });
    if (stack.endsWith('-lb')) {
      leftOut.push({ check: 'ready', what: `the exposures of ${stack}`, why: `${stack} is not verified: ${EMULATOR_ONLY_WHY}` });
      leftOut.push({
        check: 'claims',
        what: `the exposures of ${stack}${options.outputsFile ? ` (in ${options.outputsFile})` : ''}`,
        why: `${stack} is not verified: ${EMULATOR_ONLY_WHY}`,
      });
    }
  }

  const clock = options.clock ?? SYSTEM_CLOCK;
  const live = new LiveStatus({ stream: options.progressStream ?? { write: () => true }, mode: options.progressStream ? undefined : 'lines', title: 'verify', write: options.progress, clock });
  const say = (line: string) => live.line(line);
  for (const l of leftOut) say(`left out: ${l.check} of ${l.what}: ${l.why}`);
  /** Left out, and said. */
  const leaveOut = (...out: LeftOut[]) => {
    leftOut.push(...out);
    for (const l of out) say(`left out: ${l.check} of ${l.what}: ${l.why}`);
  };
  const interrupted = () => options.signal?.aborted === true;

  const outdir = join(cwd, 'cdktf.out');
  const app = new App({ outdir, stackTraces: false });
  // Each environment where its state says it is, as deploy and teardown place it. A state that holds resources but says not
  // where is a problem; one that could not be read is not (the plans read the same state, and fail or are left out, saying why).
  const clouds = (['aws', 'gcp'] as const).filter((c) => kinds.some((k) => k.startsWith(c)));
  const placed = await placeDeployed(options.config, { cwd, awsEndpoint: options.awsEndpoint, clouds });
  const located = { ...placed, state: { ...placed.state, unread: placed.state.unread.filter((u) => u.kind === 'no location') } };
  problems.push(...deployedPlacementProblems(options.config, located, { moves: false, envs, clouds }).map((p) => p.detail));
  // Emulator state under this project directory (cwd), as deploy and teardown keep it, not under the process's.
  addPlacedLab(app, options.config, { awsEmulator: options.awsEndpoint ? { endpoint: options.awsEndpoint } : undefined, emulatorStateDir: join(cwd, EMULATOR_STATE_DIR), placement: placed.placement });
  synthFresh(app);
  const stacks = stackGraph(envs, 'deploy', kinds).map((t) => t.stack);
  // Local state with nothing in it: said in one line, and no plan or probe runs.
  const nothing = options.outputsFile ? undefined : nothingDeployed(outdir, stacks);
  if (nothing) problems.push(`${nothing}: nothing verified; deploy first (npx hoplab deploy)`);
  // What cannot run here, found before anything runs: Terraform not on the PATH, a cloud without credentials.
  // Those checks are left out, with why (the verdict is then INCOMPLETE, not FAILED); exposures read from
  // an outputs file are still waited for and probed, which needs neither.
  const blocked = nothing ? new Map<string, string>() : await blockedStacks(options, stacks, tf.startError);
  for (const [stack, why] of blocked) {
    const out: LeftOut[] = [{ check: 'drift', what: stack, why }];
    if (stack.endsWith('-lb') && !options.outputsFile) {
      out.push({ check: 'ready', what: `the exposures of ${stack}`, why: `${stack} is not verified: ${why}` });
      out.push({ check: 'claims', what: `the exposures of ${stack}`, why: `${stack} is not verified: ${why}; --outputs FILE checks its exposures without Terraform or credentials` });
    }
    leaveOut(...out);
  }
  const checked = nothing ? [] : stacks.filter((s) => !blocked.has(s));

  // As deploy and teardown run it: the provider cache, and the mirror for an emulator run only.
  const tfEnv = labTerraformEnv(cwd, options.awsEndpoint);
  const logDir = join(cwd, '.hoplab', 'logs');

  const rawOutputs: Record<string, Record<string, unknown>> = {};
  const readOutputs = async (stack: string, dir: string, log: string) => {
    const out = await terraform(['output', '-json', '-no-color'], dir, tfEnv, log);
    try {
      const parsed = JSON.parse(out.stdout) as Record<string, { value?: unknown }>;
      rawOutputs[stack] = Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, v.value]));
    } catch {
      problems.push(`${stack}: terraform output -json gave no outputs (${out.stderr.trim().split('\n')[0] ?? ''})`);
    }
  };

  // 1. No drift.
  const drift: DriftResult[] = [];
  let versions: VerifyReport['versions'] = { hoplab: hoplabVersion(cwd), terraform: tf.version, providers: {} };
  // Stacks whose plan an interruption kept from running: their exposures are not read either (without an outputs file).
  const unplanned = new Set<string>();
  try {
    for (const stack of checked) {
      if (interrupted()) {
        unplanned.add(stack);
        leaveOut({ check: 'drift', what: stack, why: `${INTERRUPTED} before its plan` });
        if (stack.endsWith('-lb') && !options.outputsFile) {
          leaveOut(...(['ready', 'claims'] as const).map((check) => ({ check, what: `the exposures of ${stack}`, why: `${INTERRUPTED} before the plan of ${stack}, which reads them` })));
        }
        continue;
      }
      say(`drift: terraform plan of ${stack}`);
      const dir = join(outdir, 'stacks', stack);
      const log = join(logDir, `${stack}.verify.log`);
      const activity = new TerraformActivity();
      const task = `drift ${stack}`;
      live.start(task, 'init', (now) => describeActivity(activity, now));
      const result = await checkDrift(dir, stack, tfEnv, log, { onLine: (line) => activity.feed(line, clock.now()), onPhase: (phase) => live.update(task, { phase }) });
      drift.push(result);
      live.end(task, `drift: ${stack}: ${driftSummary(result)} (${result.seconds} s)`);
      // The providers are known in an initialized stack only: from the first stack whose plan ran.
      if (Object.keys(versions.providers).length === 0 && result.status !== 'error') {
        const version = await terraform(['version', '-json'], dir, tfEnv, log);
        try {
          const parsed = JSON.parse(version.stdout) as { terraform_version?: string; provider_selections?: Record<string, string> };
          versions = { ...versions, terraform: versions.terraform ?? parsed.terraform_version ?? null, providers: parsed.provider_selections ?? {} };
        } catch {
          // the providers stay unknown
        }
      }
      if (!options.outputsFile && result.status !== 'error') {
        await readOutputs(stack, dir, log);
      }
    }
    // The probe tells node addresses by the cluster stack's ranges: read the cluster outputs of lb stacks verified without their cluster stack.
    for (const lb of options.outputsFile ? [] : checked.filter((s) => s.endsWith('-lb') && !unplanned.has(s))) {
      const cluster = lb.replace(/-lb$/, '-cluster');
      if (rawOutputs[cluster] !== undefined || interrupted()) continue;
      const dir = join(outdir, 'stacks', cluster);
      const log = join(logDir, `${cluster}.verify.log`);
      const init = await terraform(['init', '-input=false', '-no-color'], dir, tfEnv, log);
      if (init.code === 0) await readOutputs(cluster, dir, log);
      else problems.push(`${cluster}: terraform init failed, its outputs (node and Pod ranges) are unknown (log: ${log})`);
    }
  } finally {
    live.stop();
  }

  // 2. and 3. Ready, and the claims measured: of every lb stack verified, and, from an outputs file, of those whose plan could not run too.
  const lbStacks = (options.outputsFile ? stacks : checked.filter((s) => !unplanned.has(s))).filter((s) => s.endsWith('-lb'));
  const readiness: ReadyResult[] = [];
  let claims: ClaimCheck[] = [];
  let proberAddress: string | null = null;
  if (lbStacks.length > 0) {
    const read: LabOutputs = options.outputsFile
      ? readOutputsFile(options.outputsFile)
      : Object.keys(rawOutputs).length > 0
      ? parseOutputs(rawOutputs, 'terraform output')
      : { environments: [], ignored_stacks: [] };
    // The lb stacks' exposures, and their cluster stacks' ranges (the probe tells node addresses by them).
    const selected = stacksOnly(read, (stack) => lbStacks.includes(stack) || lbStacks.includes(stack.replace(/-cluster$/, '-lb')));
    const model = compareOutputs(selected, options.outputsFile ?? 'terraform output');
    const cells = model.environments.flatMap((e) => e.rows.flatMap((r) => Object.entries(r.clouds).map(([cloud, cell]) => ({ env: e.env, cloud, mode: r.mode, cell: cell! }))));
    if (cells.length === 0) problems.push(`no exposure outputs found for ${lbStacks.join(', ')}: nothing to measure (deployed?)`);
    // A narrowed app.allowedSourceCidrs keeps out a prober outside it: its exposures are left out, with why, not waited for in vain.
    const allowed = options.config.app.allowedSourceCidrs;
    const isLoopbackUrl = (url: string | null) => url !== null && URL.canParse(url) && loopbackAddress(new URL(url)) !== null;
    const narrowed = !admitsAnyAddress(allowed) && cells.some((c) => !isLoopbackUrl(c.cell.exposure.url));
    const learned = narrowed ? await learnPublicAddress({ myIp: options.probe.myIp, url: options.myIpUrl }) : undefined;
    const outside = learned && 'address' in learned && !inRanges(learned.address, allowed) ? learned : undefined;
    if (learned && 'reason' in learned)
      say(`note: app.allowedSourceCidrs admits only ${allowed.join(', ')} and this machine's public address is unknown (${learned.reason}); from outside the list, ${OUTSIDE_SOURCES_SEES}`);
    const shutOut = (c: (typeof cells)[number]) => outside !== undefined && !isLoopbackUrl(c.cell.exposure.url);
    for (const c of cells.filter(shutOut)) {
      const why = `this machine (${outside!.address}, from ${outside!.source}) is outside app.allowedSourceCidrs ${allowed.join(', ')}: ${OUTSIDE_SOURCES_SEES}; ${outsideSourcesFix(
        outside!.address,
      )}`;
      leaveOut(...(['ready', 'claims'] as const).map((check) => ({ check, what: `${c.env} ${c.cloud} ${c.mode}`, why })));
    }
    try {
      // Side by side: the exposures are independent URLs, so the longest wait is one --wait, not one per exposure.
      const waiting = cells.filter((c) => !shutOut(c));
      const limiter = new Limiter(READY_WAIT.inFlight);
      if (waiting.length > 0 && !interrupted()) {
        say(`ready: waiting for ${waiting.length === 1 ? '1 exposure' : `${waiting.length} exposures side by side, each`} up to ${options.waitMs / 1000} s (--wait)`);
      }
      const waited = await Promise.all(
        waiting.map(async ({ env, cloud, mode, cell }) => {
          const label = `${env} ${cloud} ${mode}`;
          const task = `ready ${label}`;
          let latest: string | undefined;
          live.start(task, 'waiting', () => latest);
          const result = await waitReady(label, cell.exposure.url, {
            waitMs: options.waitMs,
            progress: (line) => live.end(task, line),
            onAttempt: ({ attempts, last }) => {
              latest = `${plural(attempts, 'attempt')}, last: ${last}`;
            },
            limiter,
            ...(options.signal ? { signal: options.signal } : {}),
            ...(options.waitClock ? { clock: options.waitClock } : {}),
          });
          live.end(task);
          return result;
        }),
      );
      // In the exposures' order, whichever answered first.
      for (const r of waited) {
        if (!r.interrupted) {
          readiness.push(r);
          continue;
        }
        const waitedFor = r.attempts === 0 ? 'before its wait' : `after ${r.seconds} s of waiting (${plural(r.attempts, 'attempt')}, last: ${r.last})`;
        leaveOut({ check: 'ready', what: r.label, why: `${INTERRUPTED} ${waitedFor}` }, { check: 'claims', what: r.label, why: `${INTERRUPTED} before its probe` });
      }
      if (interrupted()) {
        // Ready or not, no exposure is probed once interrupted.
        leaveOut(...readiness.map((r) => ({ check: 'claims' as const, what: r.label, why: `${INTERRUPTED} before its probe` })));
      } else {
        const address = learned ?? (await learnPublicAddress({ myIp: options.probe.myIp, url: options.myIpUrl }));
        if ('address' in address) proberAddress = address.address;
        else say(`probe: own public address unknown (${address.reason}); client-address facts of non-loopback URLs cannot be measured: pass --my-ip`);
        const reachable = outside ? withoutCells(model, (env, cloud, cell) => shutOut({ env, cloud, mode: '', cell })) : model;
        const probed = await probeClaims(reachable, { ...options.probe, myIp: proberAddress ?? undefined, ...(options.signal ? { stop: options.signal } : {}) }, liveProbeProgress(live));
        // A probe cut short measured too little to judge by: left out, not NOT MEASURED.
        const cut = (c: ClaimCheck) => c.probe === null && c.reason === PROBE_STOPPED;
        claims = probed.filter((c) => !cut(c));
        leaveOut(...probed.filter(cut).map((c) => ({ check: 'claims' as const, what: `${c.env} ${c.cloud} ${c.mode}`, why: `${INTERRUPTED} before its probe finished` })));
      }
    } finally {
      live.stop();
    }
    for (const c of claims) say(`claims: ${c.env} ${c.cloud} ${c.mode}: ${c.status}${c.reason ? ` (${c.reason})` : ''}`);
  }

  return writeReport(options, startedAt, { environments: envs, stacks, versions, prober_address: proberAddress, drift, readiness, claims, problems, left_out: leftOut });
}

/** `model` without the cells `drop` picks (and without rows left empty). */
function withoutCells(model: CompareModel, drop: (env: string, cloud: string, cell: CompareCell) => boolean): CompareModel {
  return {
    ...model,
    environments: model.environments.map((e) => ({
      ...e,
      rows: e.rows.map((r) => ({ ...r, clouds: Object.fromEntries(Object.entries(r.clouds).filter(([cloud, cell]) => !drop(e.env, cloud, cell!))) })).filter((r) => Object.keys(r.clouds).length > 0),
    })),
  };
}

/** Writes the report (JSON and Markdown) with what was found; PASSED only when every check asked for ran and passed. */
function writeReport(options: VerifyOptions, startedAt: Date, found: Omit<VerifyReport, 'schema' | 'started_at' | 'finished_at' | 'emulator' | 'verdict' | 'ok' | 'files'>): VerifyReport {
  const { drift, readiness, claims, problems } = found;
  const verdict = verdictOf(found);
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  const base = resolve(options.cwd ?? process.cwd(), options.reportPath ?? join('.hoplab', 'verify', `verify-${stamp}`));
  const report: VerifyReport = {
    schema: 'hoplab.verify/v1',
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    environments: found.environments,
    stacks: found.stacks,
    emulator: options.awsEndpoint ?? null,
    versions: found.versions,
    prober_address: found.prober_address,
    drift,
    readiness,
    claims,
    problems,
    left_out: found.left_out,
    verdict,
    ok: verdict === 'passed',
    files: { markdown: `${base}.md`, json: `${base}.json` },
  };
  mkdirSync(dirname(base), { recursive: true });
  writeFileSync(report.files.json, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(report.files.markdown, renderVerifyMarkdown(report));
  return report;
}

/** The probe's progress (compare --probe's) as a live task per exposure: `probe <label>`, its requests done and failed (exposures are probed at the same time). */
export function liveProbeProgress(live: LiveStatus): ProbeProgress {
  const counts = new Map<string, { total: number; finished: number; failures: number }>();
  return {
    start: (label, total) => {
      const c = { total, finished: 0, failures: 0 };
      counts.set(label, c);
      live.start(`probe ${label}`, 'probing', () => `${c.finished}/${c.total} requests${c.failures ? `, ${c.failures} failed` : ''}`);
    },
    tick: (label, ok) => {
      const c = counts.get(label);
      if (!c) return;
      c.finished += 1;
      c.failures += ok ? 0 : 1;
    },
    done: (label, summary) => live.end(`probe ${label}`, `probe: ${label}: ${summary}`),
  };
}

/** Probes every exposure of `model` (compare --probe) and sets what was measured against each exposure's claims (its output's `source_nat`, `client_ip_via`). */
export async function probeClaims(
  model: CompareModel,
  probe: { readonly count: number; readonly concurrency: number; readonly timeoutMs: number; readonly myIp?: string; readonly stop?: AbortSignal },
  progress?: ProbeProgress,
): Promise<ClaimCheck[]> {
  const probed = await probeModel(model, { ...probe, ...(progress ? { progress } : {}) });
  return probed.environments.flatMap((e) => e.rows.flatMap((r) => Object.entries(r.clouds).map(([cloud, cell]) => checkClaims(e.env, cloud, r.mode, cell!, cell!.exposure))));
}

/**
 * The stacks whose checks cannot run here, with why: every stack when Terraform cannot be started,
 * else those of a cloud without credentials (not asked of an emulator, whose credentials are dummies).
 */
async function blockedStacks(options: VerifyOptions, stacks: readonly string[], terraformStartError: string | undefined): Promise<Map<string, string>> {
  if (terraformStartError) return new Map(stacks.map((s) => [s, `${terraformStartError}: install Terraform 1.10 or later (https://developer.hashicorp.com/terraform/install), or put it on the PATH`]));
  if (options.awsEndpoint) return new Map();
  const cloudOf = (stack: string) => parseStackName(stack)?.cloud;
  const clouds = (['aws', 'gcp'] as const).filter((c) => stacks.some((s) => cloudOf(s) === c));
  const missing = await (options.credentials ?? credentialsMissing)({ clouds, awsRegion: options.config.aws.region });
  return new Map(
    stacks.flatMap((s) => {
      const why = missing[cloudOf(s) ?? 'aws'];
      return why && cloudOf(s) ? [[s, `${cloudOf(s)}: ${why}`] as const] : [];
    }),
  );
}
