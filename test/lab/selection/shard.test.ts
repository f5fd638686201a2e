import fc from 'fast-check';
import { validConfig } from '../../../lib/config/load';
import { assignShards, checkShardBackend, parseShard, selectShard } from '../../../lib/lab/selection/shard';

/** How many environments each shard 1..total holds. */
function shardSizes(envNames: readonly string[], total: number): number[] {
  const sizes = new Array<number>(total).fill(0);
  for (const k of assignShards(envNames, total)) sizes[k - 1] += 1;
  return sizes;
}

/** Attendee-like names (DNS labels), distinct. */
const names = fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9-]{0,18}[a-z0-9]$/), { minLength: 0, maxLength: 120 });
const totals = fc.integer({ min: 1, max: 40 });

describe('selectShard: a partition of the environments', () => {
  test('GIVEN any attendee list and N WHEN split into N shards THEN every environment is in exactly one shard, in its given order', () => {
    fc.assert(
      fc.property(names, totals, (envs, total) => {
        const shards = Array.from({ length: total }, (_, i) => selectShard(envs, { index: i + 1, total }));
        // coverage and disjointness: the shards' concatenation is a permutation of envs with no repeats
        const all = shards.flat();
        expect(all.length).toBe(envs.length);
        expect(new Set(all)).toEqual(new Set(envs));
        // each shard keeps the given order
        for (const shard of shards) expect(shard).toEqual(envs.filter((e) => shard.includes(e)));
        expect(shardSizes(envs, total)).toEqual(shards.map((s) => s.length));
      }),
      { numRuns: 150 },
    );
  });

  test('GIVEN a fixed N WHEN attendees are appended THEN no existing environment changes shard', () => {
    fc.assert(
      fc.property(names, names, totals, (before, added, total) => {
        const after = [...before, ...added.filter((a) => !before.includes(a))];
        const k = 1 + (before.length % total);
        const was = selectShard(before, { index: k, total });
        const now = selectShard(after, { index: k, total });
        expect(now.filter((e) => before.includes(e))).toEqual(was);
        expect(assignShards(after, total).slice(0, before.length)).toEqual(assignShards(before, total));
      }),
      { numRuns: 150 },
    );
  });

  test('GIVEN any list and N WHEN split THEN no shard holds more than ceil(environments/N)', () => {
    fc.assert(
      fc.property(names, totals, (envs, total) => {
        expect(Math.max(0, ...shardSizes(envs, total))).toBe(Math.ceil(envs.length / total));
      }),
    );
  });

  test('GIVEN one shard WHEN selected THEN it is everything', () => {
    expect(selectShard(['a', 'b'], { index: 1, total: 1 })).toEqual(['a', 'b']);
    expect(selectShard(['a', 'b'], undefined)).toEqual(['a', 'b']);
  });

  test('GIVEN 100 attendees in 10 shards WHEN split THEN ten each', () => {
    const attendees = Array.from({ length: 100 }, (_, i) => `attendee-${String(i + 1).padStart(3, '0')}`);
    expect(shardSizes(attendees, 10)).toEqual(new Array(10).fill(10));
  });

  test('GIVEN a known list WHEN split THEN the placement is as before (regression guard: a changed hash moves running pipelines)', () => {
    expect(assignShards(['ann', 'bob', 'cy', 'dan', 'eve', 'fay', 'gus'], 3)).toMatchSnapshot();
  });
});

describe('parseShard', () => {
  test.each([
    ['1/1', { index: 1, total: 1 }],
    ['2/5', { index: 2, total: 5 }],
    [' 3 / 3 ', { index: 3, total: 3 }],
    ['256/256', { index: 256, total: 256 }],
  ])('GIVEN %p WHEN parsed THEN %p', (text, shard) => {
    expect(parseShard(text)).toEqual(shard);
  });

  test.each(['0/3', '4/3', '1/0', '1/257', '2', 'a/b', '1/2/3', '-1/2', '1.5/2', ''])('GIVEN %p WHEN parsed THEN the error names the value and the form', (text) => {
    expect(() => parseShard(text)).toThrow(`${JSON.stringify(text)} is not a shard; write K/N with 1 <= K <= N <= 256, e.g. --shard 2/5 for the second of five`);
  });
});

describe('--shard needs a remote backend', () => {
  test('GIVEN local state WHEN --shard is given THEN it refuses and says why and what to set', () => {
    const config = validConfig({}, 'test');
    expect(() => checkShardBackend(config.backend, parseShard('1/2'))).toThrow(
      '--shard 1/2: backend.type is "local", but shards run on different machines (CI runners), each with its own disk: their state files would be lost with the runner, ' +
        'and a later teardown or another shard could not find them. Set backend to { "type": "s3", "bucket": ..., "region": ... } (locked with its lock file) or { "type": "gcs", "bucket": ... }',
    );
  });

  test.each([[{ type: 's3', bucket: 'hoplab-state', region: 'us-east-1' }], [{ type: 'gcs', bucket: 'hoplab-state' }]])('GIVEN backend %j WHEN --shard is given THEN it is accepted', (backend) => {
    const config = validConfig({ backend }, 'test');
    expect(() => checkShardBackend(config.backend, { index: 2, total: 3 })).not.toThrow();
  });

  test('GIVEN no --shard WHEN local state THEN nothing to refuse', () => {
    expect(() => checkShardBackend(validConfig({}, 'test').backend, undefined)).not.toThrow();
  });
});
