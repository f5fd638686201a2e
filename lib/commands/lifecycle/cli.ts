import { UsageError } from '../../kit/cli/cli';
import { readLabConfig } from '../../lab/files/config-file';
import { LabConfig } from '../../config/schema';
import { selectRequested, stackKinds } from '../../lab/selection/selection';
import { checkShardBackend, Shard } from '../../lab/selection/shard';
import { StackKind } from '../../lab/selection/stack-graph';
import { DEPLOY_COMMAND, TEARDOWN_COMMAND } from './command';

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
  /** teardown's `--leftovers-only`. */
  readonly leftoversOnly: boolean;
  /** deploy's `--skip-preflight`. */
  readonly skipPreflight: boolean;
  /** deploy's `--no-canary`. */
  readonly noCanary: boolean;
  /** deploy's `--my-ip`, for the canary's verify. */
  readonly myIp?: string;
  /** What validation noted of an accepted config (a deprecated datapath, a change that recreates a cluster). */
  readonly notes: readonly string[];
}

/**
 * Parses deploy's or teardown's command line (`command`), then loads the config; undefined after
 * printing --help. Throws a {@link UsageError} for a bad flag or an environment the config does
 * not have, the config's own error for a bad config (its hints worded on `now`).
 */
export function parseLifecycleArgs(command: typeof DEPLOY_COMMAND | typeof TEARDOWN_COMMAND, argv: readonly string[], now?: Date): LifecycleCliOptions | undefined {
  const values = command.parse(argv);
  if (!values) return undefined;
  const { config, notes } = readLabConfig({ now });
  let selected: ReturnType<typeof selectRequested>;
  try {
    selected = selectRequested(config, values.env, values.shard);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const leftoversOnly = 'leftovers-only' in values && values['leftovers-only'];
  const options = {
    config,
    ...selected,
    kinds: stackKinds(values.stacks),
    parallelism: values.parallelism,
    yes: values.yes,
    leftoversOnly,
    skipPreflight: 'skip-preflight' in values && values['skip-preflight'],
    noCanary: 'no-canary' in values && values['no-canary'],
    myIp: 'my-ip' in values ? values['my-ip'] : undefined,
    notes,
  };
  // A refusal (exit 1), not a bad command line. A deploy or destroy says it with the request's
  // other problems (checkLifecycleRequest); the leftover check runs no Terraform, but a shard of
  // it is still one of a sharded pipeline's, refused alike.
  if (leftoversOnly) checkShardBackend(config.backend, options.shard);
  return options;
}
