/**
 * `verify`: after a deploy, for the selected environments: no drift in any
 * stack, every exposure ready, and each exposure's measured behaviour equal to
 * its claims; with a Markdown and JSON report to keep.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { App } from 'cdktf';
import { compareOutputs, CompareModel, probeModel } from '../../plumbing/probe/compare-model';
import { parseOutputs } from '../../plumbing/terraform/outputs';
import { nothingDeployed } from '../../plumbing/terraform/local-state';
import { LabConfig } from '../../config/schema';
import { exposureOutputName } from '../../model/contract';
import { labEnvironments } from '../../config/environments';
import { isRecord } from '../../plumbing/terraform/terraform-json';
import { addLab, synthFresh } from '../../stacks/hoplab-app';
import { StackKind, STACK_KINDS, stackGraph } from '../../plumbing/selection/stack-graph';
import { findProviderMirror, writeMirrorCliConfig } from '../../plumbing/terraform/terraform';
import { learnPublicAddress } from '../../plumbing/host-checks';
import { checkClaims, ClaimCheck, claimsOf } from './claims';
import { checkDrift, DriftResult, terraform } from './drift';
import { ReadyResult, waitReady } from './readiness';

export interface VerifyOptions {
  readonly config: LabConfig;
  readonly envs?: readonly string[];
  readonly kinds?: readonly StackKind[];
  /** Project directory (cdktf.out, state, .hoplab). @default process.cwd() */
  readonly cwd?: string;
  readonly awsEndpoint?: string;
  /** Outputs as `cdktf output --outputs-file` writes them; else `terraform output -json` of each stack. */
  readonly outputsFile?: string;
  /** Wait per exposure for its load balancer to answer, ms. */
  readonly waitMs: number;
  readonly probe: { readonly count: number; readonly concurrency: number; readonly timeoutMs: number; readonly myIp?: string };
  /** Where the host's address is learned when --my-ip is not given (tests). */
  readonly myIpUrl?: string;
  /** Report path without extension. @default .hoplab/verify/verify-<timestamp> */
  readonly reportPath?: string;
  readonly progress: (line: string) => void;
}

export interface VerifyReport {
  readonly schema: 'hoplab.verify/v1';
  readonly started_at: string;
  readonly finished_at: string;
  readonly environments: readonly string[];
  readonly stacks: readonly string[];
  readonly emulator: string | null;
  readonly versions: { readonly hoplab: string; readonly terraform: string | null; readonly providers: Readonly<Record<string, string>> };
  readonly prober_address: string | null;
  readonly drift: readonly DriftResult[];
  readonly readiness: readonly ReadyResult[];
  readonly claims: readonly ClaimCheck[];
  readonly problems: readonly string[];
  readonly ok: boolean;
  /** Where the report files were written. */
  readonly files: { readonly markdown: string; readonly json: string };
}

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

export async function runVerify(options: VerifyOptions): Promise<VerifyReport> {
  const startedAt = new Date();
  try {
    return await verifyAll(options, startedAt);
  } catch (error) {
    // A verify that stops early still leaves its report, saying why.
    const why = error instanceof Error ? error.message : String(error);
    options.progress(`verify stopped early: ${why}`);
    return writeReport(options, startedAt, {
      environments: options.envs ?? labEnvironments(options.config).map((e) => e.name),
      stacks: [],
      versions: { hoplab: hoplabVersion(resolve(options.cwd ?? process.cwd())), terraform: null, providers: {} },
      prober_address: null,
      drift: [],
      readiness: [],
      claims: [],
      problems: [`verify stopped early, nothing was checked: ${why}`],
    });
  }
}

async function verifyAll(options: VerifyOptions, startedAt: Date): Promise<VerifyReport> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const requested = options.kinds ?? [...STACK_KINDS];
  const kinds = options.awsEndpoint ? requested.filter((k) => k === 'aws-cluster') : [...requested];
  const problems: string[] = [];
  if (kinds.length === 0) throw new Error('HOPLAB_AWS_ENDPOINT is set: only the aws-cluster stacks can run against the emulator; add --stacks aws-cluster');
  const all = labEnvironments(options.config).map((e) => e.name);
  const envs = options.envs ? all.filter((e) => options.envs!.includes(e)) : all;

  const outdir = join(cwd, 'cdktf.out');
  const app = new App({ outdir, stackTraces: false });
  addLab(app, options.config, { awsEmulator: options.awsEndpoint ? { endpoint: options.awsEndpoint } : undefined });
  synthFresh(app);
  const stacks = stackGraph(envs, 'deploy', kinds).map((t) => t.stack);
  // Local state with nothing in it: said in one line, and no plan or probe runs.
  const nothing = options.outputsFile ? undefined : nothingDeployed(outdir, stacks);
  if (nothing) problems.push(`${nothing}: nothing verified; deploy first (npx hoplab deploy)`);
  const checked = nothing ? [] : stacks;

  const pluginCache = join(cwd, '.hoplab', 'plugin-cache');
  mkdirSync(pluginCache, { recursive: true });
  const tfEnv: NodeJS.ProcessEnv = { TF_PLUGIN_CACHE_DIR: process.env.TF_PLUGIN_CACHE_DIR || pluginCache };
  const mirror = process.env.HOPLAB_PROVIDER_MIRROR || options.awsEndpoint ? findProviderMirror() : undefined;
  if (mirror) Object.assign(tfEnv, writeMirrorCliConfig(join(cwd, '.hoplab', 'terraform.rc'), mirror));
  const logDir = join(cwd, '.hoplab', 'logs');
  mkdirSync(logDir, { recursive: true });

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
  let versions: VerifyReport['versions'] = { hoplab: hoplabVersion(cwd), terraform: null, providers: {} };
  for (const stack of checked) {
    options.progress(`drift: terraform plan of ${stack}`);
    const dir = join(outdir, 'stacks', stack);
    const log = join(logDir, `${stack}.verify.log`);
    const result = await checkDrift(dir, stack, tfEnv, log);
    drift.push(result);
    options.progress(
      `drift: ${stack}: ${result.status === 'clean' ? 'no changes' : result.status === 'drift' ? `${result.resources.length} resources would change` : result.error} (${result.seconds} s)`,
    );
    if (versions.terraform === null && result.status !== 'error') {
      const version = await terraform(['version', '-json'], dir, tfEnv, log);
      try {
        const parsed = JSON.parse(version.stdout) as { terraform_version?: string; provider_selections?: Record<string, string> };
        versions = { ...versions, terraform: parsed.terraform_version ?? null, providers: parsed.provider_selections ?? {} };
      } catch {
        // versions stay unknown
      }
    }
    if (!options.outputsFile && result.status !== 'error') {
      await readOutputs(stack, dir, log);
    }
  }
  // The probe tells node addresses by the cluster stack's ranges: read the cluster outputs of lb stacks verified without their cluster stack.
  for (const lb of options.outputsFile ? [] : checked.filter((s) => s.endsWith('-lb'))) {
    const cluster = lb.replace(/-lb$/, '-cluster');
    if (rawOutputs[cluster] !== undefined) continue;
    const dir = join(outdir, 'stacks', cluster);
    const log = join(logDir, `${cluster}.verify.log`);
    const init = await terraform(['init', '-input=false', '-no-color'], dir, tfEnv, log);
    if (init.code === 0) await readOutputs(cluster, dir, log);
    else problems.push(`${cluster}: terraform init failed, its outputs (node and Pod ranges) are unknown (log: ${log})`);
  }

  // 2. and 3. Ready, and the claims measured.
  const lbStacks = checked.filter((s) => s.endsWith('-lb'));
  const readiness: ReadyResult[] = [];
  let claims: ClaimCheck[] = [];
  let proberAddress: string | null = null;
  if (lbStacks.length > 0) {
    let raw: Record<string, unknown> = rawOutputs;
    if (options.outputsFile) raw = JSON.parse(readFileSync(options.outputsFile, 'utf8')) as Record<string, unknown>;
    const selected = Object.fromEntries(Object.entries(raw).filter(([stack]) => stacks.includes(stack) || lbStacks.some((l) => stack === l.replace(/-lb$/, '-cluster'))));
    const model = compareOutputs(parseOutputs(selected, options.outputsFile ?? 'terraform output'), options.outputsFile ?? 'terraform output');
    const cells = model.environments.flatMap((e) => e.rows.flatMap((r) => Object.entries(r.clouds).map(([cloud, cell]) => ({ env: e.env, cloud, mode: r.mode, cell: cell! }))));
    if (cells.length === 0) problems.push(`no exposure outputs found for ${lbStacks.join(', ')}: nothing to measure (deployed?)`);
    for (const { env, cloud, mode, cell } of cells) {
      readiness.push(await waitReady(`${env} ${cloud} ${mode}`, cell.exposure.url, { waitMs: options.waitMs, progress: options.progress }));
    }
    const learned = await learnPublicAddress({ myIp: options.probe.myIp, url: options.myIpUrl });
    if ('address' in learned) proberAddress = learned.address;
    else options.progress(`probe: own public address unknown (${learned.reason}); client-address facts of non-loopback URLs cannot be measured: pass --my-ip`);
    claims = await probeClaims(model, raw, { ...options.probe, myIp: proberAddress ?? undefined });
    for (const c of claims) options.progress(`claims: ${c.env} ${c.cloud} ${c.mode}: ${c.status}${c.reason ? ` (${c.reason})` : ''}`);
  }

  return writeReport(options, startedAt, { environments: envs, stacks, versions, prober_address: proberAddress, drift, readiness, claims, problems });
}

/** Writes the report (JSON and Markdown) with what was found; ok only when every check ran and passed. */
function writeReport(options: VerifyOptions, startedAt: Date, found: Omit<VerifyReport, 'schema' | 'started_at' | 'finished_at' | 'emulator' | 'ok' | 'files'>): VerifyReport {
  const { drift, readiness, claims, problems } = found;
  const ok = problems.length === 0 && drift.every((d) => d.status === 'clean') && readiness.every((r) => r.ready) && claims.every((c) => c.status === 'match');
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
    ok,
    files: { markdown: `${base}.md`, json: `${base}.json` },
  };
  mkdirSync(dirname(base), { recursive: true });
  writeFileSync(report.files.json, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(report.files.markdown, renderVerifyMarkdown(report));
  return report;
}

/**
 * Probes every exposure of `model` (compare --probe) and sets what was measured
 * against the claims in the raw outputs (`{ "<env>-<cloud>-lb": { "exposure_<mode>": {...} } }`).
 */
export async function probeClaims(
  model: CompareModel,
  raw: Record<string, unknown>,
  probe: { readonly count: number; readonly concurrency: number; readonly timeoutMs: number; readonly myIp?: string },
): Promise<ClaimCheck[]> {
  const probed = await probeModel(model, probe);
  return probed.environments.flatMap((e) =>
    e.rows.flatMap((r) =>
      Object.entries(r.clouds).map(([cloud, cell]) => {
        const stackOutputs = raw[`${e.env}-${cloud}-lb`];
        const output = isRecord(stackOutputs) ? stackOutputs[exposureOutputName(r.mode as never)] : undefined;
        let object: Record<string, unknown> | undefined = isRecord(output) ? output : undefined;
        if (typeof output === 'string') {
          try {
            object = JSON.parse(output) as Record<string, unknown>;
          } catch {
            object = undefined;
          }
        }
        return checkClaims(e.env, cloud, r.mode, cell!, claimsOf(object));
      }),
    ),
  );
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, '<br>');

/** The report in Markdown: verdict first, then drift, readiness and claims with the probe's figures. */
export function renderVerifyMarkdown(report: VerifyReport): string {
  const lines = [
    `# hoplab verify: ${report.ok ? 'PASSED' : 'FAILED'}`,
    '',
    `- environments: ${report.environments.join(', ')}; stacks: ${report.stacks.join(', ')}`,
    `- started ${report.started_at}, finished ${report.finished_at}${report.emulator ? `; emulator ${report.emulator}` : ''}`,
    `- hoplab ${report.versions.hoplab}, Terraform ${report.versions.terraform ?? 'unknown'}${Object.entries(report.versions.providers)
      .map(([p, v]) => `, ${p} ${v}`)
      .join('')}`,
    `- prober's public address: ${report.prober_address ?? 'unknown'}`,
    ...report.problems.map((p) => `- problem: ${p}`),
    '',
    '## Drift (terraform plan)',
    '',
    '| stack | result | resources that would change (attributes) |',
    '|---|---|---|',
    ...report.drift.map(
      (d) =>
        `| ${d.stack} | ${d.status === 'clean' ? 'no changes' : d.status === 'drift' ? 'DRIFT' : 'ERROR'} (${d.seconds} s) | ${cell(
          d.status === 'error'
            ? d.error ?? ''
            : [
                ...d.resources.map((r) => `${r.address} ${r.actions} (${r.attributes.join(', ')})`),
                ...d.outside_changes.map((r) => `changed outside Terraform: ${r.address} (${r.attributes.join(', ')})`),
              ].join('\n'),
        )} |`,
    ),
  ];
  if (report.readiness.length > 0) {
    lines.push('', '## Ready', '', '| exposure | URL | ready | after | last answer |', '|---|---|---|---|---|');
    lines.push(...report.readiness.map((r) => `| ${r.label} | ${r.url ?? '-'} | ${r.ready ? 'yes' : 'NO'} | ${r.seconds} s, ${r.attempts} attempts | ${cell(r.last)} |`));
  }
  if (report.claims.length > 0) {
    lines.push('', '## Claims against measurement', '', '| exposure | result | facts (claimed / measured) | probe | why |', '|---|---|---|---|---|');
    lines.push(
      ...report.claims.map((c) => {
        const facts = c.facts.map((f) => `${f.fact}: ${String(f.claimed)} / ${String(f.measured)}`).join('<br>');
        const p = c.probe;
        const figures = p
          ? `${p.ok}/${p.sent} ok${p.latency_ms ? `, p50 ${p.latency_ms.p50} ms, p95 ${p.latency_ms.p95} ms` : ''}, ${Object.keys(p.pods).length} Pods, ${Object.keys(p.nodes).length} nodes`
          : '-';
        return `| ${c.env} ${c.cloud} ${c.mode} | ${c.status === 'match' ? 'match' : c.status === 'contradiction' ? 'CONTRADICTION' : 'NOT MEASURED'} | ${facts || '-'} | ${figures} | ${cell(
          c.reason ?? '',
        )} |`;
      }),
    );
  }
  lines.push('', `Exit ${report.ok ? 0 : 1}: ${report.ok ? 'no drift, and every exposure ready and as claimed' : 'see above'}.`, '');
  return lines.join('\n');
}

/** Whether the report file exists (for tests and the CLI's last line). */
export const reportWritten = (report: VerifyReport) => existsSync(report.files.json) && existsSync(report.files.markdown);
