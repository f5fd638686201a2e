/**
 * The `preflight` command line, and the gate `deploy` runs before it applies
 * anything. Kept apart from bin/preflight.ts so tests can run it in-process.
 */
import { readLabConfig } from '../../lab/files/config-file';
import { LabConfig } from '../../config/schema';
import { parseSelection } from '../../lab/selection/selection';
import { Shard } from '../../lab/selection/shard';
import { StackKind } from '../../lab/selection/stack-graph';
import { blocking, renderFindings, ReportFormat } from '../../lab/checks/finding';
import { PreflightOptions, runPreflight } from './preflight';
import { PREFLIGHT_COMMAND } from './command';

export interface PreflightArgs {
  readonly config: LabConfig;
  readonly envs?: string[];
  readonly kinds: StackKind[];
  readonly shard?: Shard;
  readonly myIp?: string;
  readonly format: ReportFormat;
  /** `--request-quotas`: file a request for each quota found short. */
  readonly requestQuotas: boolean;
  readonly yes: boolean;
}

/** Parses the command line; undefined after printing --help. `now`: the date the config's hints are worded on. */
export function parsePreflightArgs(argv: readonly string[], now?: Date): PreflightArgs | undefined {
  const values = PREFLIGHT_COMMAND.parse(argv);
  if (!values) return undefined;
  const config = readLabConfig({ now }).config;
  // A shard on local state is one of the findings, with every other reason deploy would refuse.
  const { envs, kinds, shard } = parseSelection(config, values, false);
  return { config, envs, kinds, shard, myIp: values['my-ip'], format: values.format, requestQuotas: values['request-quotas'] ?? false, yes: values.yes ?? false };
}

/**
 * What `deploy` runs first: preflight for the same selection, its table on
 * stdout; returns whether the deploy may go on. `skip` (--skip-preflight)
 * goes on without it, loudly.
 */
export async function preflightGate(
  options: PreflightOptions & {
    readonly skip: boolean;
    readonly write: (line: string) => void;
    /** The table's width (the terminal's). @default - not wrapped */
    readonly width?: number;
  },
): Promise<boolean> {
  if (options.skip) {
    options.write('hoplab deploy: --skip-preflight: PREFLIGHT SKIPPED. Nothing was checked before spending money; a missing permission or quota fails mid-deploy.');
    return true;
  }
  const result = await runPreflight(options);
  options.write(renderFindings(result.findings, 'table', result.meta, options.width).trimEnd());
  const blockers = blocking(result.findings);
  if (blockers.length > 0) {
    options.write(
      `hoplab deploy: stopped before anything was applied: preflight found ${blockers.length} blocking problem${blockers.length === 1 ? '' : 's'} (${blockers
        .map((b) => b.check)
        .join(', ')}); fix them, or add --skip-preflight to deploy anyway`,
    );
    return false;
  }
  return true;
}
