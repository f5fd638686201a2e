/**
 * The structured result of `compare` (also its `--format json` output, under
 * `schema: "hoplab.compare/v1"`): per environment, exposures as rows and
 * clouds as columns, each cell the exposure output and, with `--probe`, what
 * was measured. `null` means unknown.
 */
import { EXPOSURE_MODES } from '../../model/modes';
import { Cloud } from '../../model/contract';
import { ClusterInfo, EnvironmentOutputs, ExposureInfo, LabOutputs } from '../terraform/outputs';
import { probeUrl } from './probe';
import { ProbeResult, proberAddressFor, summarizeProbe } from './probe-summary';
import { ProbeProgress } from './progress';

export interface CompareCell {
  readonly exposure: ExposureInfo;
  /** With `--probe`: what was measured; `null` when not probed. */
  readonly probe: ProbeResult | null;
  /** Why it was not probed, e.g. no URL. */
  readonly not_probed_because: string | null;
}

export interface CompareRow {
  readonly mode: string;
  readonly clouds: Partial<Record<Cloud, CompareCell>>;
}

export interface CompareEnvironment {
  readonly env: string;
  /** Column order. */
  readonly clouds: readonly Cloud[];
  readonly clusters: Partial<Record<Cloud, ClusterInfo>>;
  readonly rows: readonly CompareRow[];
  readonly notes: readonly string[];
}

export interface CompareModel {
  readonly schema: 'hoplab.compare/v1';
  /** Where the outputs came from. */
  readonly source: string;
  /** The probe settings, `null` without `--probe`. */
  readonly probe: { readonly count: number; readonly concurrency: number; readonly timeout_ms: number; readonly my_ip: string | null } | null;
  readonly environments: readonly CompareEnvironment[];
  readonly ignored_stacks: readonly string[];
}

export interface ProbeSettings {
  readonly count: number;
  readonly concurrency: number;
  readonly timeoutMs: number;
  readonly myIp?: string;
  readonly progress?: ProbeProgress;
}

const CLOUDS: readonly Cloud[] = ['aws', 'gcp'];
const MODE_ORDER: readonly string[] = EXPOSURE_MODES;

function rowsOf(env: EnvironmentOutputs): CompareRow[] {
  const modes = [...new Set(CLOUDS.flatMap((c) => (env.exposures[c] ?? []).map((e) => e.mode)))].sort(
    (a, b) => (MODE_ORDER.indexOf(a) + 1 || 99) - (MODE_ORDER.indexOf(b) + 1 || 99) || a.localeCompare(b),
  );
  return modes.map((mode) => {
    const clouds: Partial<Record<Cloud, CompareCell>> = {};
    for (const cloud of CLOUDS) {
      const exposure = env.exposures[cloud]?.find((e) => e.mode === mode);
      if (exposure) {
        clouds[cloud] = { exposure, probe: null, not_probed_because: null };
      }
    }
    return { mode, clouds };
  });
}

function notesOf(env: EnvironmentOutputs): string[] {
  const notes: string[] = [];
  for (const cloud of CLOUDS) {
    const hasCluster = env.clusters[cloud] !== undefined;
    const hasLb = env.lbStacks.includes(cloud);
    if (hasCluster && !hasLb) {
      notes.push(`${env.env}-${cloud}-lb has no outputs: not deployed (exposures come with that stack)`);
    }
    if (hasLb && (env.exposures[cloud] ?? []).length === 0) {
      notes.push(`${env.env}-${cloud}-lb has no exposure_* outputs`);
    }
  }
  return notes;
}

/** The side-by-side view of the outputs, without probing. */
export function compareOutputs(outputs: LabOutputs, source: string): CompareModel {
  return {
    schema: 'hoplab.compare/v1',
    source,
    probe: null,
    environments: outputs.environments.map((env) => ({
      env: env.env,
      clouds: CLOUDS.filter((c) => env.clusters[c] !== undefined || env.lbStacks.includes(c)),
      clusters: env.clusters,
      rows: rowsOf(env),
      notes: notesOf(env),
    })),
    ignored_stacks: outputs.ignored_stacks,
  };
}

function probeableUrl(url: string | null): URL | string {
  if (url === null) {
    return 'no URL in the output (not deployed yet?)';
  }
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      return `URL ${url} is not http(s)`;
    }
    if (parsed.hostname === '' || parsed.hostname.includes('${')) {
      return `URL ${url} has no host yet`;
    }
    return parsed;
  } catch {
    return `URL ${url} is not a valid URL`;
  }
}

/**
 * Probes every exposure URL of the model, one exposure after another (each
 * with its own concurrency), and returns the model with the measurements. A
 * failing exposure is recorded in its cell; it never stops the others.
 */
export async function probeModel(model: CompareModel, settings: ProbeSettings): Promise<CompareModel> {
  const environments: CompareEnvironment[] = [];
  for (const env of model.environments) {
    const rows: CompareRow[] = [];
    for (const row of env.rows) {
      const clouds: Partial<Record<Cloud, CompareCell>> = {};
      for (const cloud of env.clouds) {
        const cell = row.clouds[cloud];
        if (!cell) {
          continue;
        }
        const url = probeableUrl(cell.exposure.url);
        if (typeof url === 'string') {
          clouds[cloud] = { ...cell, not_probed_because: url };
          continue;
        }
        const { samples, gaveUp } = await probeUrl(url, {
          count: settings.count,
          concurrency: settings.concurrency,
          timeoutMs: settings.timeoutMs,
          label: `${env.env} ${cloud} ${row.mode}`,
          ...(settings.progress ? { progress: settings.progress } : {}),
        });
        const probe = summarizeProbe(samples, {
          url: url.href,
          planned: settings.count,
          gaveUp,
          proberAddress: proberAddressFor(url, settings.myIp),
          expectedPreserved: cell.exposure.client_ip_preserved,
          expectedVia: cell.exposure.client_ip_via,
          expectedSourceNat: cell.exposure.source_nat,
          // Addresses a SNATed request can come from: on EKS nodes and Pods share the private
          // subnets; on GKE it is a node's primary IP or, for a Pod on the same node, its Pod-range gateway.
          nodeRanges: [...(env.clusters[cloud]?.pod_address_range ?? []), ...(env.clusters[cloud]?.node_address_range ?? [])],
        });
        settings.progress?.done(
          `${probe.ok}/${probe.sent} ok` +
            (probe.latency_ms ? `, p50 ${probe.latency_ms.p50} ms` : '') +
            (Object.keys(probe.errors).length
              ? `, errors: ${Object.entries(probe.errors)
                  .map(([e, n]) => `${n} ${e}`)
                  .join(', ')}`
              : '') +
            (probe.gave_up ? ' (gave up: endpoint looks dead)' : ''),
        );
        clouds[cloud] = { ...cell, probe };
      }
      rows.push({ mode: row.mode, clouds });
    }
    environments.push({ ...env, rows });
  }
  return {
    ...model,
    probe: { count: settings.count, concurrency: settings.concurrency, timeout_ms: settings.timeoutMs, my_ip: settings.myIp ?? null },
    environments,
  };
}
