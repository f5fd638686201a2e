/**
 * Splitting a workshop's environments across CI runners: `--shard K/N`.
 *
 * The environments are dealt out in the config's order. Each one goes to the
 * shard it ranks highest in a rendezvous draw over its name (sha256 of
 * `<env>/<k>` for k in 1..N), unless that shard already holds its share:
 * after i environments no shard holds more than ceil(i/N). So
 * - every environment is in exactly one shard, for any N;
 * - a shard holds at most ceil(environments/N): the slowest CI job is as short as it can be
 *   (a pure hash leaves 100 environments in 10 shards at 4 to 16 each);
 * - where an environment goes depends only on the environments before it:
 *   appending attendees moves nobody; removing or reordering attendees may move
 *   the ones after (harmless to state, which is per stack in the shared backend,
 *   but re-run every shard after such a change, not one).
 * A shard holds whole environments, never part of one's stacks.
 */
import { createHash } from 'node:crypto';
import { BackendConfig } from '../../config/schema';

/** One shard of N, 1-based as written on the command line. */
export interface Shard {
  /** 1..total */
  readonly index: number;
  /** How many shards in all (1-256). */
  readonly total: number;
}

/** The most shards: a matrix job per shard (GitHub Actions allows 256 per matrix). */
export const MAX_SHARDS = 256;

/** Parses `K/N` (1 <= K <= N <= 256); throws a message naming the value and what is allowed (`--shard`'s reader). */
export function parseShard(text: string): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = match ? Number(match[1]) : NaN;
  const total = match ? Number(match[2]) : NaN;
  if (!match || total < 1 || total > MAX_SHARDS || index < 1 || index > total) {
    throw new Error(`${JSON.stringify(text)} is not a shard; write K/N with 1 <= K <= N <= ${MAX_SHARDS}, e.g. --shard 2/5 for the second of five`);
  }
  return { index, total };
}

/** The shards 1..total ranked for an environment, best first (rendezvous hashing). */
function ranking(envName: string, total: number): number[] {
  const weights = Array.from({ length: total }, (_, i) => ({
    k: i + 1,
    w: createHash('sha256')
      .update(`${envName}/${i + 1}`)
      .digest()
      .readBigUInt64BE(0),
  }));
  weights.sort((a, b) => (a.w === b.w ? a.k - b.k : a.w > b.w ? -1 : 1));
  return weights.map((x) => x.k);
}

/** The shard (1..total) of each environment of the ordered list, by position. */
export function assignShards(envNames: readonly string[], total: number): number[] {
  const counts = new Array<number>(total + 1).fill(0);
  return envNames.map((name, i) => {
    const cap = Math.ceil((i + 1) / total);
    const k = ranking(name, total).find((candidate) => counts[candidate] < cap)!;
    counts[k] += 1;
    return k;
  });
}

/**
 * The environments of `envNames` (all the config's environments, in its order:
 * the partition depends on the order) that are in `shard`, in their given order;
 * all of them when `shard` is undefined.
 */
export function selectShard(envNames: readonly string[], shard: Shard | undefined): string[] {
  if (!shard) return [...envNames];
  const shards = assignShards(envNames, shard.total);
  return envNames.filter((_, i) => shards[i] === shard.index);
}

/**
 * Shards run on different machines: each must read and write the same state,
 * with a lock. Throws why not when the backend is local.
 */
export function checkShardBackend(backend: BackendConfig, shard: Shard | undefined): void {
  if (!shard || backend.type !== 'local') return;
  throw new Error(
    `--shard ${shard.index}/${shard.total}: backend.type is "local", but shards run on different machines (CI runners), ` +
      'each with its own disk: their state files would be lost with the runner, and a later teardown or another shard could not find them. ' +
      'Set backend to { "type": "s3", "bucket": ..., "region": ... } (locked with its lock file) or { "type": "gcs", "bucket": ... }',
  );
}

/** `2/5` */
export function formatShard(shard: Shard): string {
  return `${shard.index}/${shard.total}`;
}
