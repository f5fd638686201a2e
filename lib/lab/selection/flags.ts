/**
 * The flags that choose what a command acts on (`--env`, `--stacks`, `--shard`, `--shards`,
 * `--parallelism`), defined once: every command reads and checks them the same way. Whether an
 * environment is in the config is checked once the config is loaded ({@link selectRequested}).
 */
import { integerFlag, listFlag, stringFlag } from '../../kit/cli/command';
import { MAX_PARALLELISM } from './parallelism';
import { MAX_SHARDS, parseShard } from './shard';
import { STACK_KINDS } from './stack-graph';

/** `--env a,b`: the environments (attendee names, or the config's name). */
export const envsFlag = (description = 'only these environments') => listFlag({ value: 'NAME[,NAME]', description });

/** `--stacks aws-cluster,aws-lb`: the stack kinds. */
export const stacksFlag = (description = 'only these stack kinds') => listFlag({ value: 'KIND[,KIND]', choices: STACK_KINDS, description });

/** `--shard K/N`: one shard of the environments, as deploy --shard puts them. */
export const shardFlag = (description = 'only the environments of shard K of N, as deploy --shard puts them') => stringFlag({ value: 'K/N', parse: parseShard, description });

/** `--shards N`: how many shards (CI jobs), 1 when not given. */
export const shardsFlag = (description: string) => integerFlag({ min: 1, max: MAX_SHARDS, value: 'N', default: 1, description });

/** `--shards N` with no default: a command whose uses need it or not says which (pipeline). */
export const givenShardsFlag = (description: string) => integerFlag({ min: 1, max: MAX_SHARDS, value: 'N', description });

/** `--parallelism N|auto`: stacks at once; `auto` from the free memory (deploy, teardown, cost). */
export const parallelismFlag = (description: string) => integerFlag({ min: 1, max: MAX_PARALLELISM, keywords: ['auto'], defaultText: 'deploy.parallelism', description });

/** `--parallelism N` where the memory that `auto` measures is not this machine's (pipeline: a CI runner's). */
export const fixedParallelismFlag = (description: string) => integerFlag({ min: 1, max: MAX_PARALLELISM, value: 'N', defaultText: 'deploy.parallelism', description });
