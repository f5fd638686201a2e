/**
 * Every command, built and run as users run it (`npx hoplab <command>`), against its definition
 * (lib/commands/<command>/command.ts): an unknown flag is the same one line and exit 2 from
 * each, and --help is the definition's, listing every flag it accepts and nothing else.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Command, FlagSet, HELP_WIDTH } from '../../lib/kit/cli/command';
import { commandMessage, usageLine } from '../../lib/kit/cli/cli';
import { COMPARE_COMMAND } from '../../lib/commands/compare/command';
import { COST_COMMAND } from '../../lib/commands/cost/command';
import { EXPLAIN_COMMAND } from '../../lib/commands/explain/command';
import { HANDOUT_COMMAND } from '../../lib/commands/handout/command';
import { DEPLOY_COMMAND, REAP_COMMAND, TEARDOWN_COMMAND } from '../../lib/commands/lifecycle/command';
import { LOCAL_COMMAND } from '../../lib/commands/local/command';
import { PIPELINE_COMMAND } from '../../lib/commands/pipeline/command';
import { PREFLIGHT_COMMAND } from '../../lib/commands/preflight/command';
import { PROGRESS_COMMAND } from '../../lib/commands/progress/command';
import { SCHEMA_COMMAND } from '../../lib/commands/schema/command';
import { SYNTH_COMMAND } from '../../lib/commands/synth/command';
import { VERIFY_COMMAND } from '../../lib/commands/verify/command';
import { WATCH_COMMAND } from '../../lib/commands/watch/command';

const ROOT = resolve(__dirname, '..', '..');
const HOPLAB = join(ROOT, 'scripts', 'hoplab.cjs');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the launcher is CommonJS, as npm runs it
const { COMMANDS } = require(HOPLAB) as { COMMANDS: Record<string, [string, string]> };

const DEFINITIONS: readonly Command<FlagSet>[] = [
  SYNTH_COMMAND,
  LOCAL_COMMAND,
  EXPLAIN_COMMAND,
  COMPARE_COMMAND,
  WATCH_COMMAND,
  HANDOUT_COMMAND,
  PROGRESS_COMMAND,
  COST_COMMAND,
  PREFLIGHT_COMMAND,
  DEPLOY_COMMAND,
  VERIFY_COMMAND,
  TEARDOWN_COMMAND,
  REAP_COMMAND,
  PIPELINE_COMMAND,
  SCHEMA_COMMAND,
];

/** Runs a command with a config file that does not exist: flags are checked before any config is read, so none is needed here. */
const run = (...args: string[]) =>
  spawnSync(process.execPath, [HOPLAB, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', HOPLAB_CONFIG: join(ROOT, 'no-such-config.json') } });

/** The flags the options section of a --help lists, with their letter: `-y, --yes` is `yes/y`. */
function listedFlags(help: string): string[] {
  const options = help.slice(help.indexOf('\noptions:\n'));
  const end = options.indexOf('\n\n', 1);
  return [...(end === -1 ? options : options.slice(0, end)).matchAll(/^ {2}(?:-([a-zA-Z]), )?--([a-z0-9-]+)/gm)].map(([, letter, name]) => (letter ? `${name}/${letter}` : name));
}

/** The flags a definition accepts, as {@link listedFlags} writes them; --help is every command's. */
const acceptedFlags = (command: Command<FlagSet>) => [...Object.entries(command.flags).map(([name, flag]) => (flag.short ? `${name}/${flag.short}` : name)), 'help/h'];

beforeAll(() => {
  execFileSync(process.execPath, ['scripts/build.mjs', ...new Set(Object.values(COMMANDS).map(([bin]) => bin))], { cwd: ROOT });
});

describe('every command line, from its definition', () => {
  test("GIVEN the launcher's commands THEN each has a definition of that name and the same one-line summary", () => {
    expect(DEFINITIONS.map((d) => d.name).sort()).toEqual(Object.keys(COMMANDS).sort());
    for (const definition of DEFINITIONS) expect([definition.name, COMMANDS[definition.name][1]]).toEqual([definition.name, definition.summary]);
  });

  describe.each(DEFINITIONS.map((d) => [d.name, d] as const))('%s', (name, definition) => {
    test('GIVEN an unknown flag WHEN run THEN one line in the one shape, nothing on stdout, exit 2', () => {
      const result = run(name, '--no-such-flag');
      expect([result.status, result.stdout, result.stderr]).toEqual([2, '', `${usageLine(name, '--no-such-flag: unknown flag')}\n`]);
      expect(result.stderr).toBe(`hoplab ${name}: --no-such-flag: unknown flag (see npx hoplab ${name} --help)\n`);
    });

    test("GIVEN --help WHEN run THEN it is the definition's help, listing every flag it accepts and nothing it does not, within 80 columns", () => {
      const result = run(name, '--help');
      expect([result.status, result.stderr]).toEqual([0, '']);
      expect(result.stdout).toBe(definition.help());
      expect(listedFlags(result.stdout).sort()).toEqual(acceptedFlags(definition).sort());
      // The usage forms and the prose name no flag the command does not have (`--shard` in "deploy --shard" is deploy's, said so).
      const usage = result.stdout.slice(0, result.stdout.indexOf('\n\n'));
      const named = [...usage.matchAll(/--([a-z][a-z0-9-]*)/g)].map((m) => m[1]);
      expect(named.filter((flag) => !Object.hasOwn(definition.flags, flag))).toEqual([]);
      expect(result.stdout.split('\n').filter((line) => line.length > HELP_WIDTH)).toEqual([]);
    });
  });

  test("GIVEN compare --watch with a flag watch does not have WHEN run THEN the line is watch's", () => {
    const result = run('compare', '--watch', '--no-such-flag');
    expect([result.status, result.stderr]).toEqual([2, `${usageLine('watch', '--no-such-flag: unknown flag')}\n`]);
  });

  test('GIVEN a bad value of a shared flag WHEN each command that has it runs THEN the same message, each naming its command', () => {
    const withStacks = DEFINITIONS.filter((d) => Object.hasOwn(d.flags, 'stacks'));
    expect(withStacks.map((d) => d.name).sort()).toEqual(['cost', 'deploy', 'preflight', 'teardown', 'verify']);
    for (const { name } of withStacks) {
      const result = run(name, '--stacks', 'eks');
      expect([name, result.status, result.stderr]).toEqual([name, 2, `${usageLine(name, '--stacks: "eks" is not one of aws-cluster, aws-lb, gcp-cluster, gcp-lb')}\n`]);
    }
  });

  test('GIVEN an outputs file that is not JSON WHEN compare, watch and explain read it THEN one line in the shape of every refusal, `hoplab <command>: ...`, exit 1', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'hoplab-bad-outputs-')), 'bad.json');
    writeFileSync(file, '{x');
    const reason = `outputs file ${file} is not valid JSON at line 1, column 2: Expected property name or '}' (line 1: "{x"); write it with \`npx cdktf output --outputs-file ${file}\``;
    for (const args of [['compare'], ['watch', '--duration', '1'], ['explain', '--dir', join(ROOT, 'test', 'fixtures', 'lab')]]) {
      const result = run(...args, '--outputs', file);
      expect([args[0], result.status, result.stdout, result.stderr]).toEqual([args[0], 1, '', `${commandMessage(args[0], reason)}\n`]);
    }
    expect(commandMessage('compare', 'x')).toBe('hoplab compare: x');
  });
});
