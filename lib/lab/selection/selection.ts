/** Which environments and stacks a command works on: --env, --shard and --stacks, read the same way by every command. */
import { LabConfig } from '../../config/schema';
import { labEnvironments } from '../../config/environments';
import { readLabConfig } from '../files/config-file';
import { STACK_KINDS, StackKind } from './stack-graph';
import { checkShardBackend, formatShard, selectShard, Shard } from './shard';
import { plural } from '../../kit/terminal/terminal';
import { UsageError } from '../../kit/cli/cli';
import { LabOutputs } from '../files/outputs';

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

/**
 * `--env a,b` and `--shard K/N` (as their flags read them, lib/lab/selection/flags.ts) against the
 * config. A shard is computed over all the config's environments, in its order (placement depends
 * on the whole list), and then narrowed to `--env`: `--env ann --shard 2/3` is ann if ann is in
 * shard 2, else nothing. Throws a plain Error naming the flag; the backend check for shards is the
 * caller's ({@link checkShardBackend}).
 */
export function selectRequested(config: LabConfig, requested: readonly string[] | undefined, shard: Shard | undefined): { envs?: string[]; shard?: Shard; requested?: string[] } {
  selectEnvironments(config, requested);
  const named = requested ? [...requested] : undefined;
  if (!shard) return { envs: named };
  const inShard = selectShard(
    labEnvironments(config).map((e) => e.name),
    shard,
  );
  return { envs: named ? named.filter((e) => inShard.includes(e)) : inShard, shard, ...(named ? { requested: named } : {}) };
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
 * verify): an environment not in the config is a {@link UsageError} (exit 2); a shard with local
 * state is refused as deploy refuses it.
 */
export function parseSelection(
  config: LabConfig,
  values: { readonly env?: readonly string[]; readonly shard?: Shard; readonly stacks?: readonly StackKind[] },
  /** false: the caller reports a shard on local state with the request's other problems (preflight). */
  refuseLocalShard = true,
): { envs?: string[]; shard?: Shard; kinds: StackKind[] } {
  let selected: { envs?: string[]; shard?: Shard };
  try {
    selected = selectRequested(config, values.env, values.shard);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (refuseLocalShard) checkShardBackend(config.backend, selected.shard);
  return { ...selected, kinds: stackKinds(values.stacks) };
}

/** `--stacks` as its flag read it, or every kind when it was not given. */
export function stackKinds(stacks: readonly StackKind[] | undefined): StackKind[] {
  return stacks ? [...stacks] : [...STACK_KINDS];
}

/**
 * For commands that read outputs (compare, watch): whether an environment is kept by `--env`
 * and `--shard` together. Each narrows: an environment is kept only when it is in every one given.
 */
export function keepEnvironment(envs: readonly string[] | undefined, inShard: ReadonlySet<string> | undefined): (env: string) => boolean {
  return (env) => (envs === undefined || envs.includes(env)) && (inShard === undefined || inShard.has(env));
}

/**
 * The outputs narrowed to the environments `--env` and `--shard` keep ({@link keepEnvironment}),
 * and the line that says why there is nothing to show (the command exits 1): `--env` names one the
 * outputs do not hold, or the shard (`shard`, its environments `inShard`) holds none of the ones
 * `--env` names or, without `--env`, none of the outputs' (words as {@link emptyShardText}'s).
 */
export function narrowOutputs(outputs: LabOutputs, envs: readonly string[] | undefined, inShard: ReadonlySet<string> | undefined, shard: Shard | undefined): { outputs: LabOutputs; missing?: string } {
  const found = outputs.environments.map((e) => e.env);
  const missing = envs?.filter((e) => !found.includes(e)) ?? [];
  const keep = keepEnvironment(envs, inShard);
  const kept = outputs.environments.filter((e) => keep(e.env));
  let why: string | undefined;
  if (missing.length > 0) why = `--env ${missing.join(',')}: no such environment in the outputs; found: ${found.join(', ') || 'none'}`;
  else if (kept.length === 0 && found.length > 0 && inShard && shard) {
    const holds = `it holds ${inShard.size > 0 ? [...inShard].join(', ') : 'no environment'}`;
    why = envs
      ? `shard ${formatShard(shard)} holds none of --env ${envs.join(',')} (${holds})`
      : `shard ${formatShard(shard)} holds none of the outputs' environments (${holds}; the outputs hold ${found.join(', ')})`;
  }
  return { outputs: { ...outputs, environments: kept }, ...(why ? { missing: why } : {}) };
}

/**
 * When the outputs hold environments and the config names none of them (outputs of another
 * config's lab, or no config found: the defaults' one environment), the line that says so for a
 * command that reads outputs for the config's environments (handout, progress); else undefined.
 * `source` names the outputs (the --outputs file). runCli's last line then names the config read,
 * or that none was found ({@link readLabConfig}).
 */
export function outputsNotInConfig(outputs: LabOutputs, config: LabConfig, source: string): string | undefined {
  const held = outputs.environments.map((e) => e.env);
  const named = labEnvironments(config).map((e) => e.name);
  if (held.length === 0 || held.some((env) => named.includes(env))) return undefined;
  return (
    `${source} holds ${held.length === 1 ? 'environment' : 'environments'} ${held.join(', ')}; the config names none of them (it names ${named.join(', ')}): ` +
    'run where the config that deployed them is, or point HOPLAB_CONFIG at it'
  );
}

/**
 * The environments of `shard` for commands that read outputs rather than deploy
 * (compare, watch): of `environments` when given (tests), else of the config's, read as deploy reads them.
 */
export function shardEnvironments(shard: Shard, environments?: () => readonly string[]): Set<string> {
  const all = environments ? environments() : labEnvironments(readLabConfig().config).map((e) => e.name);
  return new Set(selectShard(all, shard));
}
