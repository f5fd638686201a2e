/** Which environments and stacks a command works on: --env, --shard and --stacks, read the same way by every command. */
import { LabConfig } from '../../config/schema';
import { labEnvironments } from '../../config/environments';
import { loadConfig } from '../../config/load';
import { STACK_KINDS, StackKind } from './stack-graph';
import { checkShardBackend, formatShard, parseShard, selectShard, Shard } from './shard';
import { plural } from '../../kit/terminal/terminal';
import { UsageError } from '../../kit/cli/cli';

/** What a command works on, as its options name it: the config, its environments and stack kinds, and a local AWS emulator. */
export interface LabSelection {
  readonly config: LabConfig;
  /** Environment names; all when undefined. */
  readonly envs?: readonly string[];
  /** @default all four */
  readonly kinds?: readonly StackKind[];
  /** A local AWS emulator's endpoint: only aws-cluster stacks run there. @default - real AWS */
  readonly awsEndpoint?: string;
}

/** Throws a message naming the bad option, the value and what is allowed. */
export function selectEnvironments(config: LabConfig, requested?: readonly string[]): string[] {
  const all = labEnvironments(config).map((e) => e.name);
  if (!requested) return all;
  const unknown = requested.filter((e) => !all.includes(e));
  if (unknown.length > 0) throw new Error(`--env: ${unknown.map((e) => `"${e}"`).join(', ')} not in this config; environments: ${all.join(', ')}`);
  return [...requested];
}

/** Parses `--stacks aws-cluster,gcp-lb`. */
export function parseKinds(text: string | undefined): StackKind[] {
  if (text === undefined) return [...STACK_KINDS];
  const kinds = text
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const bad = kinds.filter((k) => !(STACK_KINDS as readonly string[]).includes(k));
  if (bad.length > 0 || kinds.length === 0) throw new Error(`--stacks: ${JSON.stringify(text)} is not a list of stack kinds; allowed: ${STACK_KINDS.join(', ')} (comma-separated)`);
  return kinds as StackKind[];
}

/**
 * `--env a,b` and `--shard K/N` as every command reads them. A shard is computed
 * over all the config's environments, in its order (placement depends on the
 * whole list), and then narrowed to `--env`: `--env ann --shard 2/3` is ann if
 * ann is in shard 2, else nothing. Throws a plain Error naming the flag; the
 * backend check for shards is the caller's ({@link checkShardBackend}).
 */
export function selectRequested(config: LabConfig, envText: string | undefined, shardText: string | undefined): { envs?: string[]; shard?: Shard; requested?: string[] } {
  const requested =
    envText === undefined
      ? undefined
      : envText
          .split(',')
          .map((e) => e.trim())
          .filter(Boolean);
  selectEnvironments(config, requested);
  const shard = shardText === undefined ? undefined : parseShard(shardText);
  if (!shard) return { envs: requested };
  const inShard = selectShard(
    labEnvironments(config).map((e) => e.name),
    shard,
  );
  return { envs: requested ? requested.filter((e) => inShard.includes(e)) : inShard, shard, ...(requested ? { requested } : {}) };
}

/**
 * Why `--shard K/N` (with `--env`, when given) leaves no environment: the `--env` filter
 * (`shard 1/3 holds none of --env cy (it holds ann, dee)`), or more shards than environments.
 */
export function emptyShardText(config: LabConfig, shard: Shard, requested?: readonly string[]): string {
  const all = labEnvironments(config).map((e) => e.name);
  const inShard = selectShard(all, shard);
  if (requested) {
    return `shard ${formatShard(shard)} holds none of --env ${requested.join(',')} (it holds ${inShard.length > 0 ? inShard.join(', ') : 'no environment'})`;
  }
  return `shard ${formatShard(shard)} holds none of this config's ${plural(all.length, 'environment')} (${plural(shard.total, 'shard')} for ${plural(all.length, 'environment')})`;
}

/**
 * `--env`, `--shard` and `--stacks` for the commands that only read (preflight,
 * verify): a bad value is a {@link UsageError} (exit 2); a shard with local
 * state is refused as deploy refuses it.
 */
export function parseSelection(
  config: LabConfig,
  values: { readonly env?: string; readonly shard?: string; readonly stacks?: string },
  /** false: the caller reports a shard on local state with the request's other problems (preflight). */
  refuseLocalShard = true,
): { envs?: string[]; shard?: Shard; kinds: StackKind[] } {
  let selected: { envs?: string[]; shard?: Shard };
  let kinds: StackKind[];
  try {
    kinds = parseKinds(values.stacks);
    selected = selectRequested(config, values.env, values.shard);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (refuseLocalShard) checkShardBackend(config.backend, selected.shard);
  return { ...selected, kinds };
}

/**
 * The environments of shard `text` (K/N) for commands that read outputs rather than deploy
 * (compare, watch): of `environments` when given (tests), else of the config's, read as deploy reads them.
 */
export function shardEnvironments(text: string, environments?: () => readonly string[]): Set<string> {
  const all = environments ? environments() : labEnvironments(loadConfig().config).map((e) => e.name);
  return new Set(selectShard(all, parseShard(text)));
}
