/**
 * The flags several commands share, each defined once (lib/lab/selection/flags.ts,
 * lib/lab/probe/flags.ts, lib/lab/files/flags.ts): what each accepts and the exact
 * message for what it does not, the same in every command that uses it.
 */
import { defineCommand } from '../../../lib/kit/cli/command';
import { UsageError } from '../../../lib/kit/cli/cli';
import { outputsFlag, synthDirFlag } from '../../../lib/lab/files/flags';
import { concurrencyFlag, countFlag, maxInFlightFlag, myIpFlag, timeoutFlag } from '../../../lib/lab/probe/flags';
import { envsFlag, fixedParallelismFlag, givenShardsFlag, parallelismFlag, shardFlag, shardsFlag, stacksFlag } from '../../../lib/lab/selection/flags';
import { stackKinds } from '../../../lib/lab/selection/selection';

const shared = defineCommand({
  name: 'shared',
  summary: 's',
  description: 'd',
  flags: {
    env: envsFlag(),
    stacks: stacksFlag(),
    shard: shardFlag(),
    shards: shardsFlag('shards'),
    parallelism: parallelismFlag('stacks at once'),
    count: countFlag(),
    concurrency: concurrencyFlag(),
    'max-in-flight': maxInFlightFlag(),
    timeout: timeoutFlag(),
    'my-ip': myIpFlag('your address'),
    outputs: outputsFlag('outputs'),
    dir: synthDirFlag('the app'),
  },
});
const fixed = defineCommand({
  name: 'fixed',
  summary: 's',
  description: 'd',
  flags: { parallelism: fixedParallelismFlag('stacks at once'), shards: givenShardsFlag('shards') },
});

const parse = (argv: readonly string[]) => shared.parse(argv, { env: {}, out: () => undefined })!;

describe('the shared flags', () => {
  test('GIVEN none THEN the defaults: every stack kind, one shard, the probe limits, cdktf.out', () => {
    const values = parse([]);
    expect(stackKinds(values.stacks)).toEqual(['aws-cluster', 'aws-lb', 'gcp-cluster', 'gcp-lb']);
    expect(values).toMatchObject({ env: undefined, shard: undefined, shards: 1, parallelism: undefined, count: 20, concurrency: 4, 'max-in-flight': 1024, timeout: 5000, dir: 'cdktf.out' });
  });

  test('GIVEN each THEN its typed value', () => {
    expect(parse(['--env', 'ann,bob', '--stacks', 'gcp-lb, aws-lb', '--shard', ' 2 / 5 ', '--shards', '256', '--parallelism', 'auto', '--my-ip', '2001:db8::1'])).toMatchObject({
      env: ['ann', 'bob'],
      stacks: ['gcp-lb', 'aws-lb'],
      shard: { index: 2, total: 5 },
      shards: 256,
      parallelism: 'auto',
      'my-ip': '2001:db8::1',
    });
    expect(fixed.parse(['--shards', '3', '--parallelism', '32'], { env: {} })).toMatchObject({ shards: 3, parallelism: 32 });
    // No default: pipeline, the one user, says which of its uses need it.
    expect(fixed.parse([], { env: {} })).toMatchObject({ shards: undefined });
  });

  test.each([
    [shared, ['--stacks', 'aws'], '--stacks: "aws" is not one of aws-cluster, aws-lb, gcp-cluster, gcp-lb'],
    [shared, ['--stacks', 'aws-cluster,eks'], '--stacks: "eks" is not one of aws-cluster, aws-lb, gcp-cluster, gcp-lb'],
    [shared, ['--stacks', ''], '--stacks: needs a value: --stacks KIND[,KIND]'],
    [shared, ['--env', 'ann,'], '--env: "ann," has an empty item; write NAME[,NAME]'],
    [shared, ['--shard', '4/3'], '--shard: "4/3" is not a shard; write K/N with 1 <= K <= N <= 256, e.g. --shard 2/5 for the second of five'],
    [shared, ['--shards', '257'], '--shards: "257" is not a whole number from 1 to 256'],
    [shared, ['--parallelism', '0'], '--parallelism: "0" is not a whole number from 1 to 32, or auto'],
    [fixed, ['--shards', '2', '--parallelism', 'auto'], '--parallelism: "auto" is not a whole number from 1 to 32'],
    [fixed, ['--shards', '0'], '--shards: "0" is not a whole number from 1 to 256'],
    [shared, ['--count', '0'], '--count: "0" is not a whole number from 1 to 1000'],
    [shared, ['--concurrency', '500'], '--concurrency: "500" is not a whole number from 1 to 32'],
    [shared, ['--max-in-flight', '5000'], '--max-in-flight: "5000" is not a whole number from 1 to 4096'],
    [shared, ['--timeout', 'soon'], '--timeout: "soon" is not a whole number from 100 to 60000'],
    [shared, ['--my-ip', 'home'], '--my-ip: "home" is not an IP address (e.g. 203.0.113.7)'],
    [shared, ['--outputs'], '--outputs: needs a value: --outputs FILE'],
  ] as const)('GIVEN %# %j THEN a UsageError says %p', (command, argv, message) => {
    expect(() => command.parse(argv, { env: {} })).toThrow(new UsageError(message));
  });
});
