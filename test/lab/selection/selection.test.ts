/**
 * `--env` and `--shard` as deploy, teardown, preflight and verify read them:
 * a shard is placed over the config's whole ordered list of environments, so
 * narrowing with --env never moves an environment to another shard.
 */
import { UsageError } from '../../../lib/kit/cli/cli';
import { validConfig } from '../../../lib/config/load';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseLifecycleArgs } from '../../../lib/commands/lifecycle/cli';
import { DEPLOY_COMMAND } from '../../../lib/commands/lifecycle/command';
import { emptyShardText, parseSelection, selectRequested } from '../../../lib/lab/selection/selection';
import { selectShard } from '../../../lib/lab/selection/shard';

const attendees = ['ann', 'bob', 'chen', 'dana', 'eve', 'fay', 'gus'];
const s3 = { type: 's3', bucket: 'state', region: 'us-east-1' };

describe('selectRequested', () => {
  const config = validConfig({ attendees, backend: s3 }, 'test');

  test.each([1, 2, 3])('GIVEN --env naming every attendee in another order WHEN --shard %i/3 THEN the shard is the one deploy --shard %i/3 places without --env', (index) => {
    const all = selectShard(attendees, { index, total: 3 });
    const reordered = [...attendees].reverse();
    expect(selectRequested(config, reordered, { index, total: 3 }).envs?.sort()).toEqual([...all].sort());
  });

  test('GIVEN --env with one environment WHEN it is in the shard THEN it stays; WHEN it is not THEN nothing is selected', () => {
    const inShard = selectShard(attendees, { index: 1, total: 3 });
    const outside = attendees.find((a) => !inShard.includes(a))!;
    expect(selectRequested(config, [inShard[0]], { index: 1, total: 3 }).envs).toEqual([inShard[0]]);
    expect(selectRequested(config, [outside], { index: 1, total: 3 }).envs).toEqual([]);
  });

  test('GIVEN no --shard WHEN selected THEN --env is returned as given, and all environments without --env', () => {
    expect(selectRequested(config, ['eve', 'ann'], undefined)).toEqual({ envs: ['eve', 'ann'] });
    expect(selectRequested(config, undefined, undefined)).toEqual({ envs: undefined });
  });
});

describe('emptyShardText: why a shard leaves nothing to do', () => {
  test('GIVEN --env naming an environment of another shard WHEN the shard is empty THEN it is the --env filter that is named, with what the shard holds', () => {
    const config = validConfig({ attendees, backend: s3 }, 'test');
    const inShard = selectShard(attendees, { index: 1, total: 3 });
    const outside = attendees.find((a) => !inShard.includes(a))!;
    expect(selectRequested(config, [outside], { index: 1, total: 3 })).toEqual({ envs: [], shard: { index: 1, total: 3 }, requested: [outside] });
    expect(emptyShardText(config, { index: 1, total: 3 }, [outside])).toBe(`shard 1/3 holds none of --env ${outside} (it holds ${inShard.join(', ')})`);
  });

  test('GIVEN more shards than environments and no --env WHEN a shard is empty THEN it says so, counting both', () => {
    const config = validConfig({ attendees: ['ann', 'bob'], backend: s3 }, 'test');
    const empty = [1, 2, 3].find((index) => selectShard(['ann', 'bob'], { index, total: 3 }).length === 0)!;
    expect(emptyShardText(config, { index: empty, total: 3 })).toBe(`shard ${empty}/3 holds none of this config's 2 environments (3 shards for 2 environments)`);
  });

  test('GIVEN one environment and an empty shard of --env naming it WHEN told THEN the nouns are singular where they count one', () => {
    const config = validConfig({ attendees: ['ann'], backend: s3 }, 'test');
    const empty = selectShard(['ann'], { index: 1, total: 2 }).length === 0 ? 1 : 2;
    expect(emptyShardText(config, { index: empty, total: 2 })).toBe(`shard ${empty}/2 holds none of this config's 1 environment (2 shards for 1 environment)`);
    expect(emptyShardText(config, { index: empty, total: 2 }, ['ann'])).toBe(`shard ${empty}/2 holds none of --env ann (it holds no environment)`);
  });
});

describe('parseSelection', () => {
  test.each([
    [{ env: ['zed'] }, '--env: "zed" not in this config; environments: ann, bob, chen, dana, eve, fay, gus'],
    [{ env: ['ann', 'zed', 'yul'] }, '--env: "zed", "yul" not in this config; environments: ann, bob, chen, dana, eve, fay, gus'],
  ])('GIVEN %j WHEN selected THEN a UsageError says %p', (values, message) => {
    const config = validConfig({ attendees, backend: s3 }, 'test');
    let error: unknown;
    try {
      parseSelection(config, values);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(message);
  });

  test('GIVEN local state WHEN --shard is given THEN it is refused (not a usage error) with the reason', () => {
    const config = validConfig({ attendees }, 'test');
    expect(() => parseSelection(config, { shard: { index: 1, total: 2 } })).toThrow(/^--shard 1\/2: backend.type is "local", but shards run on different machines/);
    expect(() => parseSelection(config, { shard: { index: 1, total: 2 } })).not.toThrow(UsageError);
  });
});

describe('parseLifecycleArgs', () => {
  test('GIVEN a config with aws.datapath ipvs WHEN deploy parses its command line THEN the validation notes come along, for deploy to print before it asks', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hoplab-notes-'));
    const file = join(dir, 'hoplab.config.json');
    writeFileSync(file, JSON.stringify({ aws: { datapath: 'ipvs' } }));
    const before = process.env.HOPLAB_CONFIG;
    process.env.HOPLAB_CONFIG = file;
    try {
      const options = parseLifecycleArgs(DEPLOY_COMMAND, ['--stacks', 'aws-cluster']);
      expect(options?.notes).toEqual([expect.stringMatching(/^aws\.datapath: "ipvs" is deprecated upstream since Kubernetes 1\.35/)]);
    } finally {
      if (before === undefined) delete process.env.HOPLAB_CONFIG;
      else process.env.HOPLAB_CONFIG = before;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
