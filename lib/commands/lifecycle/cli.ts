import { parseArgs } from 'node:util';
import { ConfigError } from '../../config/problems';
import { UsageError } from '../../kit/cli/cli';
import { loadConfig } from '../../config/load';
import { LabConfig } from '../../config/schema';
import { parseKinds, selectRequested } from '../../lab/selection/selection';
import { checkShardBackend, Shard, SHARD_OPTION } from '../../lab/selection/shard';
import { StackKind } from '../../lab/selection/stack-graph';

/** Options common to `deploy` and `teardown`. */
export interface LifecycleCliOptions {
  readonly config: LabConfig;
  /** The selected environments (after --env and --shard); all when undefined. */
  readonly envs?: string[];
  /** `--shard K/N`: envs holds that shard's environments only. */
  readonly shard?: Shard;
  /** `--env` as given, before `--shard` narrowed it. */
  readonly requested?: string[];
  readonly kinds: StackKind[];
  readonly parallelism?: number | 'auto';
  readonly yes: boolean;
  readonly leftoversOnly: boolean;
  readonly help: boolean;
  /** What validation noted of an accepted config (a deprecated datapath, a change that recreates a cluster). */
  readonly notes: readonly string[];
}

/** Parses the command line; throws a {@link UsageError} for a bad flag, a ConfigError for a bad config. */
export function parseLifecycleArgs(argv: readonly string[]): LifecycleCliOptions {
  let options: LifecycleCliOptions;
  try {
    options = parseLifecycleArgsOrThrow(argv);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof UsageError) throw error;
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  // A refusal (exit 1), not a bad command line. A deploy or destroy says it with the request's
  // other problems (checkLifecycleRequest); the leftover check runs no Terraform, but a shard of
  // it is still one of a sharded pipeline's, refused alike.
  if (!options.help && options.leftoversOnly) checkShardBackend(options.config.backend, options.shard);
  return options;
}

function parseLifecycleArgsOrThrow(argv: readonly string[]): LifecycleCliOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      env: { type: 'string' },
      stacks: { type: 'string' },
      parallelism: { type: 'string' },
      yes: { type: 'boolean', short: 'y', default: false },
      'leftovers-only': { type: 'boolean', default: false },
      ...SHARD_OPTION,
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    return { config: undefined as unknown as LabConfig, kinds: [], yes: false, leftoversOnly: false, help: true, notes: [] };
  }
  const { config, notes } = loadConfig();
  let parallelism: number | 'auto' | undefined;
  if (values.parallelism === 'auto') {
    parallelism = 'auto';
  } else if (values.parallelism !== undefined) {
    parallelism = Number(values.parallelism);
    if (!Number.isInteger(parallelism) || parallelism < 1 || parallelism > 32) {
      throw new Error(`--parallelism: ${JSON.stringify(values.parallelism)} is not a whole number from 1 to 32, or auto`);
    }
  }
  const { envs, shard, requested } = selectRequested(config, values.env, values.shard);
  return { config, envs, shard, requested, kinds: parseKinds(values.stacks), parallelism, yes: values.yes ?? false, leftoversOnly: values['leftovers-only'] ?? false, help: false, notes };
}
