/**
 * The structured result of `compare` (also its `--format json` output, under
 * `schema: "hoplab.compare/v1"`): per environment, exposures as rows and
 * clouds as columns, each cell the exposure output and, with `--probe`, what
 * was measured. `null` means unknown.
 */
import { EXPOSURE_MODES } from '../../model/modes';
import { Cloud } from '../../model/contract';
import { ClusterInfo, COMPARE_SCHEMA, EnvironmentOutputs, ExposureInfo, LabOutputs } from '../files/outputs';
import { Limiter } from './limiter';
import { PROBE_LIMITS, probeUrl } from './probe';
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
  /** Clouds whose `-lb` stack is in the outputs (with or without exposures), so that this document is an outputs file too. */
  readonly lb_stacks: readonly Cloud[];
  readonly clusters: Partial<Record<Cloud, ClusterInfo>>;
  readonly rows: readonly CompareRow[];
  readonly notes: readonly string[];
}

export interface CompareModel {
  readonly schema: typeof COMPARE_SCHEMA;
  /** Where the outputs came from. */
  readonly source: string;
  /** The probe settings, `null` without `--probe`. */
  readonly probe: {
    readonly count: number;
    readonly concurrency: number;
    /** Requests in flight over all exposures together. */
    readonly max_in_flight: number;
    readonly timeout_ms: number;
    readonly my_ip: string | null;
  } | null;
  readonly environments: readonly CompareEnvironment[];
  readonly ignored_stacks: readonly string[];
}

export interface ProbeSettings {
  readonly count: number;
  /** Requests in flight per exposure. */
  readonly concurrency: number;
  /**
   * Requests in flight over all exposures together (the global bound).
   * @default PROBE_LIMITS.maxInFlight.default
   */
  readonly maxInFlight?: number;
  readonly timeoutMs: number;
  readonly myIp?: string;
  readonly progress?: ProbeProgress;
  /** Ctrl-C: every probe ends at once; an exposure whose probe was cut short is left unprobed, {@link PROBE_STOPPED}. @default - never */
  readonly stop?: AbortSignal;
}

/** Why an exposure is not probed when a stop (Ctrl-C) cut its probe short: what was measured is too little to judge by. */
export const PROBE_STOPPED = 'interrupted before its probe finished';

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
    schema: COMPARE_SCHEMA,
    source,
    probe: null,
    environments: outputs.environments.map((env) => ({
      env: env.env,
      clouds: CLOUDS.filter((c) => env.clusters[c] !== undefined || env.lbStacks.includes(c)),
      lb_stacks: env.lbStacks,
      clusters: env.clusters,
      rows: rowsOf(env),
      notes: notesOf(env),
    })),
    ignored_stacks: outputs.ignored_stacks,
  };
}

/** Why a URL cannot be probed, or the URL. */
export function probeableUrl(url: string | null): URL | string {
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

/** One exposure of one environment and cloud, as the probes see it. */
export interface ProbeTarget {
  readonly env: string;
  readonly cloud: Cloud;
  readonly mode: string;
  /** `<env> <cloud> <mode>`, as progress and reports name it. */
  readonly label: string;
  readonly exposure: ExposureInfo;
  /** The URL to probe, or why it cannot be probed. */
  readonly url: URL | string;
  /**
   * Addresses a SNATed request can come from: on EKS nodes and Pods share the private subnets;
   * on GKE it is a node's primary IP or, for a Pod on the same node, its Pod-range gateway.
   */
  readonly nodeRanges: readonly string[];
}

/** Every exposure of the model, in its order (environments, exposure rows, clouds), optionally only the given modes. */
export function probeTargets(model: CompareModel, modes?: readonly string[]): ProbeTarget[] {
  return model.environments.flatMap((env) =>
    env.rows
      .filter((row) => !modes || modes.includes(row.mode))
      .flatMap((row) =>
        env.clouds.flatMap((cloud): ProbeTarget[] => {
          const cell = row.clouds[cloud];
          if (!cell) return [];
          return [
            {
              env: env.env,
              cloud,
              mode: row.mode,
              label: `${env.env} ${cloud} ${row.mode}`,
              exposure: cell.exposure,
              url: probeableUrl(cell.exposure.url),
              nodeRanges: [...(env.clusters[cloud]?.pod_address_range ?? []), ...(env.clusters[cloud]?.node_address_range ?? [])],
            },
          ];
        }),
      ),
  );
}

/**
 * Probes every exposure URL of the model, all at the same time: each exposure
 * with its own concurrency, and all of them together within `maxInFlight`
 * requests in flight. A failing exposure is recorded in its cell; it never
 * stops the others.
 */
export async function probeModel(model: CompareModel, settings: ProbeSettings): Promise<CompareModel> {
  const maxInFlight = settings.maxInFlight ?? PROBE_LIMITS.maxInFlight.default;
  const limiter = new Limiter(maxInFlight);
  const results = new Map<string, Pick<CompareCell, 'probe' | 'not_probed_because'>>();
  await Promise.all(
    probeTargets(model).map(async (target) => {
      const { url } = target;
      if (typeof url === 'string') {
        results.set(target.label, { probe: null, not_probed_because: url });
        return;
      }
      const { samples, gaveUp, stopped } = await probeUrl(url, {
        count: settings.count,
        concurrency: settings.concurrency,
        timeoutMs: settings.timeoutMs,
        label: target.label,
        limiter,
        ...(settings.progress ? { progress: settings.progress } : {}),
        ...(settings.stop ? { stop: settings.stop } : {}),
      });
      if (stopped) {
        settings.progress?.done(target.label, `${PROBE_STOPPED} (${samples.length} of ${settings.count} requests done)`);
        results.set(target.label, { probe: null, not_probed_because: PROBE_STOPPED });
        return;
      }
      const probe = summarizeProbe(samples, {
        url: url.href,
        planned: settings.count,
        gaveUp,
        proberAddress: proberAddressFor(url, settings.myIp),
        expectedPreserved: target.exposure.client_ip_preserved,
        expectedVia: target.exposure.client_ip_via,
        expectedSourceNat: target.exposure.source_nat,
        nodeRanges: target.nodeRanges,
      });
      settings.progress?.done(
        target.label,
        `${probe.ok}/${probe.sent} ok` +
          (probe.latency_ms ? `, p50 ${probe.latency_ms.p50} ms` : '') +
          (Object.keys(probe.errors).length
            ? `, errors: ${Object.entries(probe.errors)
                .map(([e, n]) => `${n} ${e}`)
                .join(', ')}`
            : '') +
          (probe.gave_up ? ' (gave up: endpoint looks dead)' : ''),
      );
      results.set(target.label, { probe, not_probed_because: null });
    }),
  );
  const environments = model.environments.map((env) => ({
    ...env,
    rows: env.rows.map((row) => ({
      mode: row.mode,
      clouds: Object.fromEntries(
        env.clouds.flatMap((cloud) => {
          const cell = row.clouds[cloud];
          return cell ? [[cloud, { ...cell, ...results.get(`${env.env} ${cloud} ${row.mode}`) }]] : [];
        }),
      ) as Partial<Record<Cloud, CompareCell>>,
    })),
  }));
  return {
    ...model,
    probe: { count: settings.count, concurrency: settings.concurrency, max_in_flight: maxInFlight, timeout_ms: settings.timeoutMs, my_ip: settings.myIp ?? null },
    environments,
  };
}
