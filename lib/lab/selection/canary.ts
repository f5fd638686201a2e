/**
 * Which environment goes first, as the canary: with more than one
 * environment, deploy applies one of them end to end and verifies it before
 * the others (lib/commands/lifecycle/canary.ts runs it), and a generated
 * pipeline deploys and verifies the same one in a job the shard jobs wait for
 * (lib/commands/pipeline).
 *
 * No canary with `--no-canary` (said loudly), and none in a shard
 * (`--shard K/N`): shards run side by side on separate runners, so a canary in
 * one would hold none of the others back, and one per shard would only make
 * every shard slower; a pipeline deploys and verifies one environment first,
 * in a job of its own (docs/workshops-and-ci.md).
 */
import { formatShard, Shard } from './shard';

/** The environment applied and verified first, and the others; or no canary, with why when it is worth saying. */
export type CanaryChoice = { readonly env: string; readonly others: readonly string[]; readonly note?: undefined } | { readonly env?: undefined; readonly note?: string };

/** The canary of a deploy of `envs` (in the config's order): the first, unless there is nothing to hold back, `--no-canary` or `--shard`. */
export function chooseCanary(envs: readonly string[], options: { readonly noCanary: boolean; readonly shard?: Shard }): CanaryChoice {
  // One environment is its own canary.
  if (envs.length < 2) return {};
  if (options.noCanary) {
    return {
      note: `--no-canary: NO CANARY. All ${envs.length} environments are applied at once and none is verified first: a mistake they share is paid ${envs.length} times over.`,
    };
  }
  if (options.shard) {
    return {
      note:
        `no canary in a shard (--shard ${formatShard(options.shard)}): shards run side by side, so it would hold none of the others back; ` +
        `deploy and verify one environment before the shard jobs (npx hoplab deploy --env ${envs[0]} --yes, then npx hoplab verify --env ${envs[0]})`,
    };
  }
  return { env: envs[0], others: envs.slice(1) };
}
