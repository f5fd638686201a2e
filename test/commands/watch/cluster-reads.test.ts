/**
 * The schedule of watch's cluster reads (ClusterReads), with time and the
 * reads' ends driven by hand: each cluster read at most every interval, never
 * twice at once, a slow one holding up no other, failures as their message,
 * `spread` putting each cluster's first read at its share of the interval, and
 * nothing reported after stop.
 */
import { ClusterReads } from '../../../lib/commands/watch/cluster-reads';

function schedule(keys: string[], spread: boolean) {
  let now = 0;
  const ends = new Map<string, ((value: string) => void)[]>();
  const fails = new Map<string, ((error: Error) => void)[]>();
  const startedAt: string[] = [];
  const results: string[] = [];
  const reads = new ClusterReads<string>({
    keys,
    read: (key) =>
      new Promise<string>((resolve, reject) => {
        startedAt.push(`${key}@${now}`);
        ends.set(key, [...(ends.get(key) ?? []), resolve]);
        fails.set(key, [...(fails.get(key) ?? []), reject]);
      }),
    intervalMs: 500,
    now: () => now,
    concurrency: 8,
    spread,
    onRead: (key, result) => results.push(`${key}: ${typeof result === 'string' ? result : `failed: ${result.why}`}`),
  });
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return {
    reads,
    startedAt,
    results,
    at: async (ms: number) => {
      now = ms;
      reads.tick();
      await settle();
    },
    end: async (key: string, value: string) => {
      ends.get(key)!.shift()!(value);
      fails.get(key)!.shift();
      await settle();
    },
    fail: async (key: string, message: string) => {
      ends.get(key)!.shift();
      fails.get(key)!.shift()!(new Error(message));
      await settle();
    },
  };
}

describe('ClusterReads', () => {
  test('GIVEN two clusters WHEN ticked THEN each is read at most every interval and never twice at once; a slow one holds up no other', async () => {
    const s = schedule(['a', 'b'], false);
    await s.at(0);
    await s.end('a', 'one');
    await s.at(300);
    await s.at(500);
    await s.end('a', 'two');
    await s.at(1000);
    expect(s.startedAt).toEqual(['a@0', 'b@0', 'a@500', 'a@1000']);
    expect(s.reads.reading).toBe(2);
    await s.fail('b', 'no answer within 5000 ms');
    await s.at(1100);
    expect(s.startedAt.at(-1)).toBe('b@1100');
    expect(s.results).toEqual(['a: one', 'a: two', 'b: failed: no answer within 5000 ms']);
    expect(Object.fromEntries(s.reads.started)).toEqual({ a: 3, b: 2 });
  });

  test('GIVEN spread over four clusters THEN their first reads are due at 0, 125, 250 and 375 ms (started at the first tick then, every 50 ms), then each every 500 ms', async () => {
    const s = schedule(['a', 'b', 'c', 'd'], true);
    for (let t = 0; t <= 650; t += 50) {
      await s.at(t);
      for (const key of ['a', 'b', 'c', 'd']) if (s.reads.reading > 0 && s.startedAt.some((x) => x === `${key}@${t}`)) await s.end(key, 'x');
    }
    expect(s.startedAt).toEqual(['a@0', 'b@150', 'c@250', 'd@400', 'a@500', 'b@650']);
  });

  test('GIVEN stop THEN nothing starts, and a read that ends after it is not reported', async () => {
    const s = schedule(['a'], false);
    await s.at(0);
    s.reads.stop();
    await s.end('a', 'late');
    await s.at(1000);
    expect([s.startedAt, s.results]).toEqual([['a@0'], []]);
  });
});
