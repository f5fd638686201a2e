/**
 * The outputs of deployed stacks, from any file hoplab writes that holds them:
 * `cdktf output --outputs-file` (`{ "<stack>": { "<output>": value } }`),
 * `compare --format json` and `pipeline --gather`'s `hoplab-compare.json`
 * (both `schema: "hoplab.compare/v1"`), told apart by their shape; or
 * collected by running cdktf. Tolerant: a missing or odd field becomes `null`.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXPOSURE_MODES } from '../../model/modes';
import { AWS_CLUSTER_OUTPUTS, ClientIpVia, CLUSTER_OUTPUTS, ClusterStackOutputs, Cloud, GCP_CLUSTER_OUTPUTS, PLACEMENT_OUTPUT, PlacementOutput } from '../../model/contract';
import { isClientIpVia } from '../../model/exposure-facts';
import { parseJson } from '../../config/json-syntax';
import { parseStackName } from './synth-dir';
import { isRecord } from '../../kit/terraform/terraform-json';
import { nothingDeployed } from './local-state';
import { OUTPUT_FILE_KINDS } from './flags';

/** An `exposure_<mode>` output, every field but the mode possibly unknown. */
export interface ExposureInfo {
  readonly mode: string;
  readonly cloud: Cloud;
  readonly url: string | null;
  readonly lb_kind: string | null;
  readonly target_type: string | null;
  readonly expected_hops: number | null;
  /** Claimed: a node SNATs on the way to the Pod. `null` in outputs older than the field. */
  readonly source_nat: boolean | null;
  /** Claimed: where the Pod finds the client (`tcp-source`, `x-forwarded-for`, `none`). */
  readonly client_ip_via: ClientIpVia | null;
  readonly client_ip_preserved: boolean | null;
  readonly client_ip_seen_as: string | null;
  readonly health_check: string | null;
  readonly external_traffic_policy: string | null;
}

/** Outputs of the contract as read back: each null where the stack has none or an odd value. */
type AsRead<T> = { readonly [K in keyof T]: T[K] | null };

/** The outputs of a `<env>-<cloud>-cluster` stack that compare shows: the contract's, as read back, and the ones read into another shape. */
export interface ClusterInfo extends AsRead<Pick<ClusterStackOutputs, 'cluster_name' | 'region' | 'node_count' | 'max_pods_per_node'>> {
  /** CIDR blocks Pod IPs come from; empty when the output is missing. */
  readonly pod_address_range: readonly string[];
  /** CIDR blocks of the nodes' own addresses where the cloud separates them from Pods (GKE's node subnet); empty on AWS, where nodes and Pods share the private subnets. */
  readonly node_address_range: readonly string[];
  /** Who handles Service traffic on the nodes (`kube-proxy-iptables`, ..., `cilium-ebpf`); null for stacks deployed before the output existed. */
  readonly dataplane: string | null;
  /** The Kubernetes API's URL (`https://...`; GKE's endpoint output is an address, given its scheme here). */
  readonly cluster_endpoint: string | null;
  /** The cluster's CA certificate, base64-encoded PEM as exported; null for stacks deployed before the output existed. */
  readonly cluster_ca_certificate: string | null;
  /** Where the cluster is, as its cloud's API names it: GKE's zone or region (`cluster_location`), EKS's region. */
  readonly cluster_location: string | null;
  /** The `placement` output: the environment's slot (account or project x region); null when the config places nothing. */
  readonly placement: PlacementOutput | null;
}

export interface EnvironmentOutputs {
  readonly env: string;
  readonly clusters: Partial<Record<Cloud, ClusterInfo>>;
  /** Exposures per cloud, by mode. */
  readonly exposures: Partial<Record<Cloud, readonly ExposureInfo[]>>;
  /** Clouds with a `-lb` stack in the outputs. */
  readonly lbStacks: readonly Cloud[];
}

/** The schema of `compare --format json` and of the file `pipeline --gather` writes: both hold the lab's outputs. */
export const COMPARE_SCHEMA = 'hoplab.compare/v1';

/** The files that hold outputs, as a sentence's end (for messages). */
const OUTPUTS_FILES = `an outputs file is ${OUTPUT_FILE_KINDS}`;

export interface LabOutputs {
  readonly environments: readonly EnvironmentOutputs[];
  readonly ignored_stacks: readonly string[];
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : null);
const bool = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' ? false : null);

/** Terraform may hand an object output over as JSON text; accept both. */
function objectValue(v: unknown): Record<string, unknown> | undefined {
  if (isRecord(v)) {
    return v;
  }
  if (typeof v === 'string' && v.trim().startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(v);
      return isRecord(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function exposureInfo(name: string, value: unknown, cloud: Cloud): ExposureInfo | undefined {
  const o = objectValue(value);
  if (!o) {
    return undefined;
  }
  const mode = str(o.mode) ?? name.replace(/^exposure_/, '').replace(/_/g, '-');
  return {
    mode,
    cloud: o.cloud === 'aws' || o.cloud === 'gcp' ? o.cloud : cloud,
    url: str(o.url),
    lb_kind: str(o.lb_kind),
    target_type: str(o.target_type),
    expected_hops: num(o.expected_hops),
    source_nat: bool(o.source_nat),
    client_ip_via: isClientIpVia(o.client_ip_via) ? o.client_ip_via : null,
    client_ip_preserved: bool(o.client_ip_preserved),
    client_ip_seen_as: str(o.client_ip_seen_as),
    health_check: str(o.health_check),
    external_traffic_policy: str(o.external_traffic_policy),
  };
}

function cidrList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((r): r is string => typeof r === 'string');
  return typeof value === 'string'
    ? value
        .split(',')
        .map((r) => r.trim())
        .filter((r) => r !== '')
    : [];
}

/** The `placement` output, when it is one. */
function placementOf(value: unknown): PlacementOutput | null {
  const o = objectValue(value);
  const slot = str(o?.slot);
  const region = str(o?.region);
  if (!o || !slot || !region) return null;
  const zones = cidrList(o.zones);
  if (o.cloud === 'aws' && str(o.account)) {
    const roleArn = str(o.role_arn);
    return { cloud: 'aws', slot, account: str(o.account)!, region, zones, ...(roleArn ? { role_arn: roleArn } : {}) };
  }
  if (o.cloud === 'gcp' && str(o.project)) return { cloud: 'gcp', slot, project: str(o.project)!, region, zones };
  return null;
}

/** An endpoint output as a URL: EKS exports one, GKE an address. */
function endpointUrl(value: unknown): string | null {
  const endpoint = str(value);
  return endpoint === null ? null : /^https?:\/\//.test(endpoint) ? endpoint : `https://${endpoint}`;
}

function clusterInfo(outputs: Record<string, unknown>, cloud: Cloud): ClusterInfo {
  return {
    cluster_name: str(outputs[CLUSTER_OUTPUTS.clusterName]),
    region: str(outputs[CLUSTER_OUTPUTS.region]),
    node_count: num(outputs[CLUSTER_OUTPUTS.nodeCount]),
    max_pods_per_node: num(outputs[CLUSTER_OUTPUTS.maxPodsPerNode]),
    pod_address_range: cidrList(outputs[CLUSTER_OUTPUTS.podAddressRange]),
    node_address_range: cidrList(outputs[GCP_CLUSTER_OUTPUTS.nodeAddressRange]),
    dataplane: str(outputs[CLUSTER_OUTPUTS.dataplane]),
    cluster_endpoint: endpointUrl(outputs[cloud === 'aws' ? AWS_CLUSTER_OUTPUTS.clusterEndpoint : GCP_CLUSTER_OUTPUTS.clusterEndpoint]),
    cluster_ca_certificate: str(outputs[cloud === 'aws' ? AWS_CLUSTER_OUTPUTS.clusterCaCertificate : GCP_CLUSTER_OUTPUTS.clusterCaCertificate]),
    cluster_location: str(cloud === 'aws' ? outputs[CLUSTER_OUTPUTS.region] : outputs[GCP_CLUSTER_OUTPUTS.clusterLocation]),
    placement: placementOf(outputs[PLACEMENT_OUTPUT]),
  };
}

const MODE_ORDER: readonly string[] = EXPOSURE_MODES;
const byMode = (a: ExposureInfo, b: ExposureInfo) => (MODE_ORDER.indexOf(a.mode) + 1 || 99) - (MODE_ORDER.indexOf(b.mode) + 1 || 99) || a.mode.localeCompare(b.mode);

/**
 * Sorts a parsed outputs file into environments: `cdktf output` JSON, or a `hoplab.compare/v1`
 * document (`compare --format json`, `pipeline --gather`), told apart by its `schema`.
 */
export function parseOutputs(raw: unknown, source: string): LabOutputs {
  if (!isRecord(raw)) {
    throw new Error(`${source} is not an outputs file: expected a JSON object (${OUTPUTS_FILES})`);
  }
  if (typeof raw.schema === 'string') {
    if (raw.schema === COMPARE_SCHEMA) return parseCompareDocument(raw, source);
    throw new Error(`${source} is a ${raw.schema} document, which holds no outputs; ${OUTPUTS_FILES}`);
  }
  const envs = new Map<string, { env: string; clusters: Partial<Record<Cloud, ClusterInfo>>; exposures: Partial<Record<Cloud, ExposureInfo[]>>; lbStacks: Cloud[] }>();
  const ignored: string[] = [];
  for (const stack of Object.keys(raw).sort()) {
    const parsed = parseStackName(stack);
    const outputs = raw[stack];
    if (!parsed || !isRecord(outputs)) {
      ignored.push(stack);
      continue;
    }
    const env = envs.get(parsed.env) ?? { env: parsed.env, clusters: {}, exposures: {}, lbStacks: [] };
    envs.set(parsed.env, env);
    if (parsed.kind === 'cluster') {
      env.clusters[parsed.cloud] = clusterInfo(outputs, parsed.cloud);
    } else {
      env.lbStacks.push(parsed.cloud);
      env.exposures[parsed.cloud] = Object.entries(outputs)
        .filter(([name]) => name.startsWith('exposure_'))
        .flatMap(([name, value]) => {
          const info = exposureInfo(name, value, parsed.cloud);
          return info ? [info] : [];
        })
        .sort(byMode);
    }
  }
  if (envs.size === 0) {
    throw new Error(
      `${source} has no hoplab stacks (names like lab-aws-cluster, lab-aws-lb, lab-gcp-cluster, lab-gcp-lb)` +
        (ignored.length ? `; found: ${ignored.join(', ')}` : '; it is empty: deploy first (npm run deploy)'),
    );
  }
  return { environments: [...envs.values()].sort((a, b) => a.env.localeCompare(b.env)), ignored_stacks: ignored };
}

/** A cloud's name, or undefined. */
const cloudOf = (v: unknown): Cloud | undefined => (v === 'aws' || v === 'gcp' ? v : undefined);

/**
 * The outputs in a `hoplab.compare/v1` document (compare-model.ts writes it): each environment's
 * clusters, its exposures (the rows' cells), and the clouds with an lb stack (`lb_stacks`; in a
 * document written before that field, the clouds with an exposure or without a cluster).
 */
function parseCompareDocument(doc: Record<string, unknown>, source: string): LabOutputs {
  const environments: EnvironmentOutputs[] = [];
  const list = Array.isArray(doc.environments) ? doc.environments : [];
  for (const entry of list) {
    const env = isRecord(entry) ? str(entry.env) : null;
    if (!isRecord(entry) || env === null) throw new Error(`${source} (${COMPARE_SCHEMA}): an environment without a name (${JSON.stringify(entry)?.slice(0, 80)}); write the file again with hoplab`);
    const clusters: Partial<Record<Cloud, ClusterInfo>> = {};
    for (const [cloud, info] of Object.entries(isRecord(entry.clusters) ? entry.clusters : {})) {
      const c = cloudOf(cloud);
      if (c && isRecord(info)) clusters[c] = clusterFields(info);
    }
    const exposures: Partial<Record<Cloud, ExposureInfo[]>> = {};
    for (const row of Array.isArray(entry.rows) ? entry.rows : []) {
      if (!isRecord(row) || !isRecord(row.clouds)) continue;
      for (const [cloud, cell] of Object.entries(row.clouds)) {
        const c = cloudOf(cloud);
        const info = c && isRecord(cell) ? exposureInfo(`exposure_${String(row.mode)}`, cell.exposure, c) : undefined;
        if (c && info) (exposures[c] ??= []).push(info);
      }
    }
    const listed = Array.isArray(entry.lb_stacks) ? entry.lb_stacks.map(cloudOf).filter((c): c is Cloud => c !== undefined) : undefined;
    const clouds = (Array.isArray(entry.clouds) ? entry.clouds : []).map(cloudOf).filter((c): c is Cloud => c !== undefined);
    const lbStacks = listed ?? clouds.filter((c) => exposures[c] !== undefined || clusters[c] === undefined);
    for (const c of lbStacks) exposures[c] = (exposures[c] ?? []).sort(byMode);
    environments.push({ env, clusters, exposures, lbStacks });
  }
  if (environments.length === 0) {
    throw new Error(`${source} (${COMPARE_SCHEMA}) holds no environment: its shards' deploys wrote no outputs (deploy first, or gather again)`);
  }
  const ignored = Array.isArray(doc.ignored_stacks) ? doc.ignored_stacks.filter((s): s is string => typeof s === 'string') : [];
  return { environments: environments.sort((a, b) => a.env.localeCompare(b.env)), ignored_stacks: ignored };
}

/** A compare document's cluster (already a {@link ClusterInfo}), each field checked as the outputs' are. */
function clusterFields(info: Record<string, unknown>): ClusterInfo {
  return {
    cluster_name: str(info.cluster_name),
    region: str(info.region),
    node_count: num(info.node_count),
    max_pods_per_node: num(info.max_pods_per_node),
    pod_address_range: cidrList(info.pod_address_range),
    node_address_range: cidrList(info.node_address_range),
    dataplane: str(info.dataplane),
    cluster_endpoint: str(info.cluster_endpoint),
    cluster_ca_certificate: str(info.cluster_ca_certificate),
    cluster_location: str(info.cluster_location),
    placement: placementOf(info.placement),
  };
}

/** The outputs of the stacks `keep` keeps (`<env>-<cloud>-cluster`, `<env>-<cloud>-lb`); environments left with none are dropped. */
export function stacksOnly(outputs: LabOutputs, keep: (stack: string) => boolean): LabOutputs {
  const environments = outputs.environments.flatMap((e): EnvironmentOutputs[] => {
    const clouds = (['aws', 'gcp'] as const).filter((c) => keep(`${e.env}-${c}-cluster`));
    const lbStacks = e.lbStacks.filter((c) => keep(`${e.env}-${c}-lb`));
    const clusters = Object.fromEntries(clouds.flatMap((c) => (e.clusters[c] ? [[c, e.clusters[c]]] : []))) as Partial<Record<Cloud, ClusterInfo>>;
    const exposures = Object.fromEntries(lbStacks.map((c) => [c, e.exposures[c] ?? []])) as Partial<Record<Cloud, readonly ExposureInfo[]>>;
    return Object.keys(clusters).length > 0 || lbStacks.length > 0 ? [{ env: e.env, clusters, exposures, lbStacks }] : [];
  });
  return { environments, ignored_stacks: outputs.ignored_stacks };
}

/** Reads an outputs file (any of {@link OUTPUTS_FILES}). */
export function readOutputsFile(file: string): LabOutputs {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read outputs file ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const raw = parseJson(text, (reason) => new Error(`outputs file ${file} ${reason}; write it with \`npx cdktf output --outputs-file ${file}\``));
  return parseOutputs(raw, file);
}

/** Runs a command; resolves with its exit code and stderr. */
export type CommandRunner = (command: string, args: readonly string[]) => Promise<{ code: number; stderr: string }>;

export const runCommand: CommandRunner = (command, args) =>
  new Promise((resolve) => {
    execFile(command, [...args], { maxBuffer: 16 * 1024 * 1024, timeout: 10 * 60_000 }, (error, _stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stderr: String(stderr) });
    });
  });

/** Stack names of the synthesized app in `synthDir` (manifest.json), for `cdktf output <stacks...>`. */
export function synthesizedStackNames(synthDir: string): string[] {
  const manifest = join(synthDir, 'manifest.json');
  if (!existsSync(manifest)) {
    throw new Error(`no ${manifest}: synthesize first (npm run synth), or pass --outputs FILE`);
  }
  const parsed = parseJson(readFileSync(manifest, 'utf8'), (reason) => new Error(`${manifest} ${reason}; synthesize again`));
  const stacks = isRecord(parsed) && isRecord(parsed.stacks) ? parsed.stacks : {};
  return Object.keys(stacks).sort();
}

/**
 * Collects every stack's outputs with `npx cdktf output --outputs-file <tmp> --skip-synth <stacks...>`
 * (the stacks named in `<synthDir>/manifest.json`).
 */
export async function collectOutputs(synthDir: string, run: CommandRunner = runCommand, keepStack: (stack: string) => boolean = () => true): Promise<LabOutputs> {
  const stacks = synthesizedStackNames(synthDir).filter(keepStack);
  // Local state with nothing in it: say so now, not after `cdktf output` ran for every stack.
  const nothing = nothingDeployed(synthDir, stacks);
  if (nothing) throw new Error(`${nothing}; deploy first (npx hoplab deploy), or pass --outputs FILE to read saved outputs`);
  const dir = mkdtempSync(join(tmpdir(), 'hoplab-outputs-'));
  const file = join(dir, 'outputs.json');
  try {
    const args = ['cdktf', 'output', '--outputs-file', file, '--skip-synth', '--output', synthDir, ...stacks];
    const result = await run('npx', args);
    if (result.code !== 0 || !existsSync(file)) {
      const detail = result.stderr.trim().split('\n').slice(-5).join('\n');
      throw new Error(`\`npx ${args.join(' ')}\` failed (exit ${result.code}); are the stacks deployed? Pass --outputs FILE to read saved outputs instead` + (detail ? `\n${detail}` : ''));
    }
    return readOutputsFile(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The lab's outputs for a command that reads them (compare, watch): from `outputsFile` when given,
 * else collected with `npx cdktf output` from the stacks of `synthDir` whose environment `keepEnv`
 * keeps, said first on `say`. `source` names where they came from.
 */
export async function readLabOutputs(options: {
  readonly outputsFile?: string;
  readonly synthDir: string;
  readonly run?: CommandRunner;
  readonly keepEnv: (env: string) => boolean;
  readonly say: (line: string) => void;
}): Promise<{ outputs: LabOutputs; source: string }> {
  if (options.outputsFile !== undefined) return { outputs: readOutputsFile(options.outputsFile), source: options.outputsFile };
  options.say(`collecting outputs with npx cdktf output (stacks of ${options.synthDir}/manifest.json)`);
  const outputs = await collectOutputs(options.synthDir, options.run ?? runCommand, (stack) => options.keepEnv(stackEnvironment(stack)));
  return { outputs, source: 'cdktf output' };
}

/** `ann-aws-cluster` -> `ann`: the environment a stack belongs to. */
export function stackEnvironment(stack: string): string {
  return stack.replace(/-(aws|gcp)-(cluster|lb)$/, '');
}
