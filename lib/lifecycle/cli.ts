import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { ConfigError } from '../config/problems';
import { loadConfig } from '../config/load';
import { LabConfig } from '../config/schema';
import { labEnvironments } from '../environments';
import { parseKinds, selectEnvironments } from './lifecycle';
import { StackKind } from './stack-graph';

/** Options common to `deploy` and `teardown`. */
export interface LifecycleCliOptions {
  readonly config: LabConfig;
  readonly envs?: string[];
  readonly kinds: StackKind[];
  readonly parallelism?: number;
  readonly yes: boolean;
  readonly leftoversOnly: boolean;
  readonly help: boolean;
}

/** A bad command line: exits 2, pointing at --help. */
export class UsageError extends Error {}

/** Parses the command line; throws a {@link UsageError} for a bad flag, a ConfigError for a bad config. */
export function parseLifecycleArgs(argv: readonly string[]): LifecycleCliOptions {
  try {
    return parseLifecycleArgsOrThrow(argv);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof UsageError) throw error;
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
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
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    return { config: undefined as unknown as LabConfig, kinds: [], yes: false, leftoversOnly: false, help: true };
  }
  const config = loadConfig().config;
  let parallelism: number | undefined;
  if (values.parallelism !== undefined) {
    parallelism = Number(values.parallelism);
    if (!Number.isInteger(parallelism) || parallelism < 1 || parallelism > 32) {
      throw new Error(`--parallelism: ${JSON.stringify(values.parallelism)} is not a whole number from 1 to 32`);
    }
  }
  const envs = values.env === undefined ? undefined : values.env.split(',').map((e) => e.trim()).filter(Boolean);
  selectEnvironments(config, envs);
  return { config, envs, kinds: parseKinds(values.stacks), parallelism, yes: values.yes ?? false, leftoversOnly: values['leftovers-only'] ?? false, help: false };
}

/** The config narrowed to the selected environments (for the cost estimate). */
export function selectedConfig(config: LabConfig, envs?: readonly string[]): LabConfig {
  if (!envs) return config;
  return { ...config, attendees: labEnvironments(config).map((e) => e.name).filter((n) => envs.includes(n)) };
}

/**
 * Runs a command's main: a bad command line exits 2 (see --help), a bad config
 * or a refused request exits 1, each with one clear message.
 */
export function runCli(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      const usage = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
      console.error(error instanceof ConfigError ? error.message : `hoplab: ${message}${usage ? ' (see --help)' : ''}`);
      process.exit(usage ? 2 : 1);
    },
  );
}

/** Strict flags for a command that takes only --help (and the listed booleans); prints `help` for --help. */
export function simpleArgs(help: string, booleans: readonly string[] = []): Record<string, boolean> | undefined {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: Object.fromEntries([['help', { type: 'boolean', short: 'h' }], ...booleans.map((b) => [b, { type: 'boolean' }])]) as Record<string, { type: 'boolean' }>,
    strict: true,
  });
  if (values.help) {
    console.log(help);
    return undefined;
  }
  return values as Record<string, boolean>;
}

/** Ctrl-C once: stop starting stacks, let running Terraform stop gracefully; twice: exit at once. */
export function abortOnSignals(what: string): AbortController {
  const controller = new AbortController();
  let count = 0;
  let firstAt = 0;
  const handler = (signal: NodeJS.Signals) => {
    // One Ctrl-C can arrive twice (from the terminal and forwarded by npm): count it once.
    if (count === 1 && Date.now() - firstAt < 1500) return;
    count += 1;
    firstAt = firstAt || Date.now();
    if (count > 1) process.exit(130);
    console.error(`\nhoplab ${what}: ${signal}: no new stacks start; running Terraform stops gracefully (again to exit at once)`);
    controller.abort();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return controller;
}

/**
 * Asks before a command that costs money or destroys labs. `--yes` skips the
 * question; without a terminal `--yes` is required (nothing is done).
 * Returns whether to go on, having said why not.
 */
export async function confirm(command: string, question: string, yes: boolean): Promise<boolean> {
  if (yes) return true;
  if (!process.stdin.isTTY) {
    console.error(`hoplab ${command}: not on a terminal; add --yes to ${command} without the question`);
    return false;
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const answer = await rl.question(`${question} [y/N] `);
  rl.close();
  if (/^y(es)?$/i.test(answer.trim())) return true;
  console.log(`hoplab ${command}: nothing done`);
  return false;
}
