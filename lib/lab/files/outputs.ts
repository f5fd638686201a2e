/**
 * The outputs of deployed stacks, as `cdktf output --outputs-file` writes
 * them: `{ "<stack>": { "<output>": value } }`. Read from a file, or collected
 * by running cdktf. Tolerant: a missing or odd field becomes `null`.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXPOSURE_MODES } from '../../model/modes';
import { AWS_CLUSTER_OUTPUTS, ClientIpVia, CLUSTER_OUTPUTS, Cloud, GCP_CLUSTER_OUTPUTS, PLACEMENT_OUTPUT, PlacementOutput } from '../../model/contract';
import { isClientIpVia } from '../../model/exposure-facts';
import { parseStackName } from './synth-dir';
import { isRecord } from '../../kit/terraform/terraform-json';
import { nothingDeployed } from './local-state';

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

/** The outputs of a `<env>-<cloud>-cluster` stack that compare shows. */
export interface ClusterInfo {
  readonly cluster_name: string | null;
  readonly region: string | null;
  readonly node_count: number | null;
  readonly max_pods_per_node: number | null;
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
  if (o.cloud === 'aws' && str(o.account)) return { cloud: 'aws', slot, account: str(o.account)!, region, zones };
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

/** Sorts parsed `cdktf output` JSON into environments. */
export function parseOutputs(raw: unknown, source: string): LabOutputs {
  if (!isRecord(raw)) {
    throw new Error(`${source} is not a cdktf outputs file: expected a JSON object of stack name -> outputs`);
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

/** Reads an outputs file. */
export function readOutputsFile(file: string): LabOutputs {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read outputs file ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(`outputs file ${file} is not valid JSON (${(error as Error).message}); write it with \`npx cdktf output --outputs-file ${file}\``);
  }
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
  try {
    const stacks = (JSON.parse(readFileSync(manifest, 'utf8')) as { stacks?: Record<string, unknown> }).stacks ?? {};
    return Object.keys(stacks).sort();
  } catch (error) {
    throw new Error(`${manifest} is not valid JSON (${(error as Error).message}); synthesize again`);
  }
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
