/**
 * One typed definition per command, from which its command line is parsed and
 * checked, its `--help` written and its usage errors worded: a flag is
 * declared once (name, short alias, type, choices, range, default, the
 * environment variable that may supply it, whether it may be repeated or take
 * an optional value, and its description) and every command reads, checks and
 * documents it the same way.
 *
 * Parsing is `node:util` parseArgs (no dependency, nothing to load at start-up)
 * in its lenient mode with `tokens`, and the checks are this module's, so that
 * every problem has one wording: `--format: "xml" is not one of table, json`.
 * parseArgs has no flag with an optional value; such a flag is given to it as
 * a boolean, and its value read from the tokens (`--flag=VALUE`, or the next
 * argument when that is not a flag).
 *
 * Knows no lab: flags that several commands share are defined once where their
 * meaning lives (lib/lab/selection/flags.ts, ...) with the builders below.
 */
import { parseArgs } from 'node:util';
import { wrapWords } from '../text/wrap';
import { UsageError } from './cli';

/** What a flag's value is: `list` is comma-separated (`--env ann,bob`). */
export type FlagKind = 'boolean' | 'string' | 'integer' | 'list';

/** One flag, as a command declares it. Made by the builders below ({@link stringFlag}, ...); `T` is the parsed value's type. */
export interface Flag<T> {
  readonly kind: FlagKind;
  /** What it does, for --help; the default, range, choices and environment variable are added after it. */
  readonly description: string;
  /** One letter: `y` for `-y`. */
  readonly short?: string;
  /** The value's name in --help and usage errors. @default - the choices joined by `|`, `N` for an integer, `VALUE` */
  readonly value?: string;
  /** The allowed values (of each item of a list). */
  readonly choices?: readonly string[];
  /** An integer's smallest and largest values. */
  readonly min?: number;
  readonly max?: number;
  /** Words an integer flag takes besides numbers (`auto`). */
  readonly keywords?: readonly string[];
  /** The value when the flag is absent (and its variable unset). */
  readonly default?: T;
  /** What --help says the default is when it is not a plain value (`deploy.parallelism`). */
  readonly defaultText?: string;
  /** An environment variable that supplies the value when the flag is absent. */
  readonly env?: string;
  /** May be given more than once: a list's items add up, a string flag's values are collected. @default false (given twice is a usage error) */
  readonly repeatable?: boolean;
  /** The flag takes a value, or none: `--flag` alone means this value, `--flag=VALUE` (or `--flag VALUE`) another. */
  readonly optionalValue?: string;
  /** Must be given (unless --help). */
  readonly required?: boolean;
  /** Reads one value (one item of a list): returns it, or throws an Error whose message says what is wrong with it. */
  readonly read: (text: string) => unknown;
  /** The parsed value's type, for {@link Values}; never set. */
  readonly __type?: T;
}

/** A command's flags by their long name (`max-in-flight`), `help` not included (every command has it). */
export type FlagSet = Readonly<Record<string, Flag<unknown>>>;

/** The parsed values of `F`, by flag name. */
export type Values<F extends FlagSet> = { readonly [K in keyof F]: F[K] extends Flag<infer T> ? T : never } & {
  /** The arguments that are not flags (only a command that declares {@link CommandSpec.arguments} has any). */
  readonly positionals: readonly string[];
};

/** What every flag builder takes. */
interface Common {
  readonly description: string;
  readonly short?: string;
  readonly value?: string;
  readonly env?: string;
  readonly defaultText?: string;
}

type ValueSpec = Common & { readonly required?: boolean; readonly optionalValue?: string };

const asText = (text: string): string => text;

/** `--probe`: true when given (or when its environment variable is `1` or `true`). */
export function booleanFlag(spec: Common): Flag<boolean> {
  return { ...spec, kind: 'boolean', default: false, read: readBoolean };
}

function readBoolean(text: string): boolean {
  if (/^(1|true|yes)$/i.test(text)) return true;
  if (/^(0|false|no|)$/i.test(text)) return false;
  throw new Error(`${JSON.stringify(text)} is not one of 1, true, yes, 0, false, no`);
}

/** `--outputs FILE`: any text but the empty one; `parse` may check and turn it into another value (its Error's message says what is wrong). */
export function stringFlag<T = string>(spec: ValueSpec & { readonly parse?: (text: string) => T; readonly default: T }): Flag<NoInfer<T>>;
export function stringFlag<T = string>(spec: ValueSpec & { readonly parse?: (text: string) => T; readonly required: true }): Flag<NoInfer<T>>;
export function stringFlag<T = string>(spec: ValueSpec & { readonly parse?: (text: string) => T; readonly repeatable: true }): Flag<NoInfer<T>[]>;
export function stringFlag<T = string>(spec: ValueSpec & { readonly parse?: (text: string) => T }): Flag<NoInfer<T> | undefined>;
export function stringFlag<T>(spec: ValueSpec & { readonly parse?: (text: string) => T; readonly default?: T; readonly repeatable?: boolean }): Flag<unknown> {
  const { parse, ...rest } = spec;
  return { ...rest, kind: 'string', read: parse ?? asText };
}

/** `--format table|json`: one of `choices`. */
export function choiceFlag<const C extends readonly string[]>(choices: C, spec: ValueSpec & { readonly default: C[number] }): Flag<C[number]>;
export function choiceFlag<const C extends readonly string[]>(choices: C, spec: ValueSpec): Flag<C[number] | undefined>;
export function choiceFlag(choices: readonly string[], spec: ValueSpec & { readonly default?: string }): Flag<unknown> {
  return { ...spec, kind: 'string', choices, read: (text) => oneOf(choices, text) };
}

function oneOf(choices: readonly string[], text: string): string {
  if (!choices.includes(text)) throw new Error(`${JSON.stringify(text)} is not one of ${choices.join(', ')}`);
  return text;
}

type IntegerSpec = ValueSpec & { readonly min: number; readonly max: number };

/** `--count N`: a whole number from `min` to `max` (or one of `keywords`: `--parallelism N|auto`). */
export function integerFlag<const K extends string = never>(spec: IntegerSpec & { readonly keywords?: readonly K[]; readonly default: number | NoInfer<K> }): Flag<number | NoInfer<K>>;
export function integerFlag<const K extends string = never>(spec: IntegerSpec & { readonly keywords?: readonly K[]; readonly required: true }): Flag<number | NoInfer<K>>;
export function integerFlag<const K extends string = never>(spec: IntegerSpec & { readonly keywords?: readonly K[] }): Flag<number | NoInfer<K> | undefined>;
export function integerFlag(spec: IntegerSpec & { readonly keywords?: readonly string[]; readonly default?: number | string }): Flag<unknown> {
  const keywords = spec.keywords ?? [];
  return {
    ...spec,
    kind: 'integer',
    read: (text) => {
      if (keywords.includes(text)) return text;
      if (/^\d+$/.test(text) && Number(text) >= spec.min && Number(text) <= spec.max) return Number(text);
      throw new Error(`${JSON.stringify(text)} is not a whole number from ${spec.min} to ${spec.max}${keywords.length ? `, or ${keywords.join(' or ')}` : ''}`);
    },
  };
}

type ListSpec = Common & { readonly required?: boolean; readonly repeatable?: boolean };

/** `--env NAME[,NAME]`: comma-separated items, each trimmed, none empty; each one of `choices` when given. */
export function listFlag<const C extends readonly string[]>(spec: ListSpec & { readonly choices: C; readonly default: readonly C[number][] }): Flag<C[number][]>;
export function listFlag<const C extends readonly string[]>(spec: ListSpec & { readonly choices: C }): Flag<C[number][] | undefined>;
export function listFlag(spec: ListSpec & { readonly default: readonly string[] }): Flag<string[]>;
export function listFlag(spec: ListSpec): Flag<string[] | undefined>;
export function listFlag(spec: ListSpec & { readonly choices?: readonly string[]; readonly default?: readonly string[] }): Flag<unknown> {
  const { choices } = spec;
  return { ...spec, kind: 'list', read: choices ? (text) => oneOf(choices, text) : asText };
}

/** The arguments a command takes besides flags (none unless declared). */
export interface ArgumentsSpec {
  /** Their name in --help: `FILE`. */
  readonly value: string;
  readonly description: string;
  /** @default 0 */
  readonly min?: number;
  /** @default no limit */
  readonly max?: number;
}

/** A command, as it is declared. */
export interface CommandSpec<F extends FlagSet> {
  /** As typed after `npx hoplab` and `npm run`: `cost`. */
  readonly name: string;
  /** One line, for `npx hoplab --help`'s list of commands. */
  readonly summary: string;
  /**
   * What it does, for --help: paragraphs separated by a blank line, each wrapped to the width;
   * a paragraph with a line that starts with a space is kept as it is written.
   */
  readonly description: string;
  readonly flags: F;
  /**
   * The forms of the command line after `npm run <name> --`, when the one generated from the flags
   * would not say it (`(--github-actions | --gitlab-ci) --shards N`); {@link FLAGS_FORM} stands for
   * the generated one. @default [FLAGS_FORM]
   */
  readonly usage?: readonly string[];
  readonly arguments?: ArgumentsSpec;
  /** Environment variables it reads, with what each does, for --help. */
  readonly environment?: readonly (readonly [name: string, description: string])[];
  /** After the flags in --help (exit codes, the JSON shape): paragraphs as in {@link description}. */
  readonly epilogue?: string;
}

/** Where a parse reads and writes. */
export interface ParseIo {
  /** Where --help goes. @default process.stdout */
  readonly out?: (text: string) => void;
  /** Where flags' environment variables are read. @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** A command, declared: its spec, and what is made from it. */
export interface Command<F extends FlagSet> extends CommandSpec<F> {
  /**
   * Reads `argv` (the arguments after the command's name). Returns the values, or undefined
   * after writing the help when `--help` (`-h`) is among them; throws a {@link UsageError}
   * naming the flag, the value and what is allowed.
   */
  parse(argv: readonly string[], io?: ParseIo): Values<F> | undefined;
  /** The --help text, fitted to {@link HELP_WIDTH} columns and ending in a newline. */
  help(): string;
}

/** In {@link CommandSpec.usage}: the form generated from the flags (`[--format table|json] [--probe] ...`). */
export const FLAGS_FORM = '<flags>';

/** The width --help fits, whatever the terminal: what every terminal has. */
export const HELP_WIDTH = 80;

const HELP_FLAG: Flag<boolean> = booleanFlag({ short: 'h', description: 'this help' });

/** Declares a command. Throws (a mistake in the declaration, found when the module loads) for a reserved or doubled name or letter. */
export function defineCommand<F extends FlagSet>(spec: CommandSpec<F>): Command<F> {
  const letters = new Set<string>(['h']);
  for (const [name, flag] of Object.entries(spec.flags)) {
    if (name === 'help' || name === 'positionals' || !/^[a-z][a-z0-9-]*$/.test(name)) throw new Error(`${spec.name}: flag name ${JSON.stringify(name)} is reserved or not kebab-case`);
    if (flag.description.trim() === '') throw new Error(`${spec.name}: --${name} has no description`);
    if (flag.short !== undefined) {
      if (letters.has(flag.short) || !/^[a-zA-Z]$/.test(flag.short)) throw new Error(`${spec.name}: -${flag.short} (--${name}) is taken or not one letter`);
      letters.add(flag.short);
    }
  }
  let help: string | undefined;
  return {
    ...spec,
    parse: (argv, io = {}) => parseCommand(spec, argv, io),
    help: () => (help ??= renderHelp(spec)),
  };
}

/** A flag by its long name, as a message names it: `--format` (also when it was given as `-y`). */
const spelled = (name: string) => `--${name}`;

function parseCommand<F extends FlagSet>(spec: CommandSpec<F>, argv: readonly string[], io: ParseIo): Values<F> | undefined {
  const flags: Readonly<Record<string, Flag<unknown>>> = { ...spec.flags, help: HELP_FLAG };
  const fail = (problem: string): never => {
    throw new UsageError(problem, spec.name);
  };
  const options = Object.fromEntries(
    Object.entries(flags).map(([name, flag]) => [
      name,
      { type: flag.kind === 'boolean' || flag.optionalValue !== undefined ? ('boolean' as const) : ('string' as const), ...(flag.short ? { short: flag.short } : {}) },
    ]),
  );
  const { tokens } = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });
  const terminator = tokens.findIndex((t) => t.kind === 'option-terminator');
  const before = terminator === -1 ? tokens : tokens.slice(0, terminator);
  // --help wins over every other flag, good or bad: it only prints.
  if (before.some((t) => t.kind === 'option' && t.name === 'help') || argv.slice(0, terminator === -1 ? undefined : argv.indexOf('--')).some((a) => a === '--help' || a === '-h')) {
    (io.out ?? ((text: string) => process.stdout.write(text)))(renderHelp(spec));
    return undefined;
  }
  const given = new Map<string, string[]>();
  const positionals: string[] = [];
  const letters = new Map(Object.entries(flags).flatMap(([name, flag]) => (flag.short ? [[flag.short, name] as const] : [])));
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i];
    if (token.kind === 'option-terminator') continue;
    if (token.kind === 'positional') {
      positionals.push(token.value);
      continue;
    }
    const long = token.rawName.startsWith('--');
    const name = long ? token.name : letters.get(token.rawName.slice(1));
    if (name === undefined || !Object.hasOwn(flags, name)) return fail(`${token.rawName}: unknown flag`);
    const flag = flags[name];
    let text: string;
    if (flag.kind === 'boolean') {
      if (token.inlineValue) fail(`${spelled(name)}: takes no value (given ${JSON.stringify(token.value)})`);
      text = 'true';
    } else if (flag.optionalValue !== undefined) {
      const next = tokens[i + 1];
      if (token.inlineValue) text = token.value ?? '';
      else if (next?.kind === 'positional' && next.index === token.index + 1 && (terminator === -1 || next.index < tokens[terminator].index) && !next.value.startsWith('-')) {
        text = next.value;
        i += 1;
      } else text = flag.optionalValue;
      if (text === '') fail(`${spelled(name)}: needs a value after =: ${spelled(name)}=${placeholder(flag)}, or ${spelled(name)} alone for ${flag.optionalValue}`);
    } else {
      // Lenient parseArgs takes the next argument as the value even when it is a flag (`--outputs --probe`): that is a missing value.
      const value = token.value;
      if (value === undefined || value === '' || (!token.inlineValue && isFlagLike(value, flags))) return fail(`${spelled(name)}: needs a value: ${spelled(name)} ${placeholder(flag)}`);
      text = value;
    }
    const texts = given.get(name) ?? [];
    if (texts.length > 0 && !flag.repeatable) fail(`${spelled(name)}: given more than once; give it once`);
    given.set(name, [...texts, text]);
  }
  const allowed = spec.arguments;
  if (!allowed && positionals.length > 0) fail(`${JSON.stringify(positionals[0])}: unexpected argument (${spec.name} takes flags only)`);
  if (allowed && positionals.length < (allowed.min ?? 0)) fail(`missing ${allowed.value}: give at least ${allowed.min}`);
  if (allowed?.max !== undefined && positionals.length > allowed.max) fail(`${JSON.stringify(positionals[allowed.max])}: unexpected argument (at most ${allowed.max} ${allowed.value})`);

  const env = io.env ?? process.env;
  const values: Record<string, unknown> = { positionals };
  for (const [name, flag] of Object.entries(spec.flags)) {
    let texts = given.get(name);
    let source = spelled(name);
    const fromEnv = flag.env === undefined ? undefined : env[flag.env];
    if (texts === undefined && fromEnv !== undefined && fromEnv !== '') {
      texts = [fromEnv];
      source = `${spelled(name)} (from ${flag.env})`;
    }
    if (texts === undefined) {
      if (flag.required) fail(`${spelled(name)}: required: give ${spelled(name)} ${placeholder(flag)}`);
      values[name] = flag.repeatable && flag.kind === 'string' ? [] : flag.default;
      continue;
    }
    const read = (text: string): unknown => {
      try {
        return flag.read(text);
      } catch (error) {
        return fail(`${source}: ${(error as Error).message}`);
      }
    };
    if (flag.kind === 'list') {
      values[name] = texts.flatMap((text) => {
        const items = text.split(',').map((item) => item.trim());
        if (items.some((item) => item === '')) fail(`${source}: ${JSON.stringify(text)} has an empty item; write ${placeholder(flag)}`);
        return items.map(read);
      });
    } else if (flag.repeatable) {
      values[name] = texts.map(read);
    } else {
      values[name] = read(texts[0]);
    }
  }
  return values as Values<F>;
}

/** Whether a value parseArgs took is rather the next flag (`--probe`, `-h`): a negative number is a value. */
function isFlagLike(value: string, flags: Readonly<Record<string, Flag<unknown>>>): boolean {
  if (value.startsWith('--')) return true;
  return /^-[a-zA-Z]$/.test(value) && Object.values(flags).some((f) => f.short === value.slice(1));
}

/** The value's name: `FILE`, `table|json`, `N|auto`, `NAME[,NAME]`. */
function placeholder(flag: Flag<unknown>): string {
  if (flag.value !== undefined) return flag.value;
  if (flag.kind === 'integer') return ['N', ...(flag.keywords ?? [])].join('|');
  if (flag.kind === 'list') return 'VALUE[,VALUE]';
  return flag.choices ? flag.choices.join('|') : 'VALUE';
}

/** `--format table|json`, `--probe`, `--diagram[=DIR]` */
function synopsis(name: string, flag: Flag<unknown>): string {
  if (flag.kind === 'boolean') return spelled(name);
  if (flag.optionalValue !== undefined) return `${spelled(name)}[=${placeholder(flag)}]`;
  return `${spelled(name)} ${placeholder(flag)}`;
}

/** What --help adds after a flag's description: choices it did not show, range, default, variable, repeatable. */
function facts(flag: Flag<unknown>): string {
  const parts: string[] = [];
  if (flag.choices && placeholder(flag) !== flag.choices.join('|')) parts.push(`${flag.kind === 'list' ? 'any' : 'one'} of ${flag.choices.join(', ')}`);
  if (flag.kind === 'integer') parts.push(`${flag.min}-${flag.max}`);
  if (flag.optionalValue !== undefined) parts.push(`alone: ${flag.optionalValue}`);
  if (flag.defaultText !== undefined) parts.push(`default ${flag.defaultText}`);
  else if (flag.kind !== 'boolean' && flag.default !== undefined) parts.push(`default ${Array.isArray(flag.default) ? flag.default.join(',') : String(flag.default)}`);
  if (flag.env !== undefined) parts.push(`env ${flag.env}`);
  if (flag.repeatable) parts.push('repeatable');
  if (flag.required) parts.push('required');
  return parts.length > 0 ? ` (${parts.join('; ')})` : '';
}

/** Paragraphs separated by blank lines: wrapped to `width`, or kept as written when a line starts with a space. */
function paragraphs(text: string, width: number): string[] {
  return text
    .split(/\n[ \t]*\n/)
    .filter((paragraph) => paragraph.trim() !== '')
    .map((paragraph) => {
      const lines = paragraph.split('\n').filter((line) => line.trim() !== '');
      return lines.some((line) => /^\s/.test(line)) ? lines.map((line) => line.trimEnd()).join('\n') : wrapWords(lines.join(' '), width, 'abbreviate').join('\n');
    });
}

/** `usage: npm run cost -- [--format table|json] ...`, continued under the first flag. */
function usageLines(spec: CommandSpec<FlagSet>, width: number): string[] {
  const command = `npm run ${spec.name}`;
  const flagged = Object.entries(spec.flags);
  const generated = flagged.map(([name, flag]) => (flag.required ? synopsis(name, flag) : `[${synopsis(name, flag)}]`));
  if (spec.arguments) generated.push(spec.arguments.min ? `${spec.arguments.value}...` : `[${spec.arguments.value}...]`);
  const forms = (spec.usage ?? [FLAGS_FORM]).map((form) => (form === FLAGS_FORM ? generated.join(' ') : form));
  return forms.flatMap((form, i) => {
    const head = `${i === 0 ? 'usage: ' : '       '}${command}${form === '' ? '' : ' --'}`;
    if (form === '') return [head];
    const indent = ' '.repeat(head.length + 1);
    const lines: string[] = [];
    let line = head;
    for (const item of items(form)) {
      if (line !== head && line.length + 1 + item.length > width) {
        lines.push(line);
        line = `${indent}${item}`;
      } else line = `${line} ${item}`;
    }
    lines.push(line);
    return lines;
  });
}

/** A usage form's items, split at the spaces outside brackets: `[--env NAME[,NAME]]` and `(--a | --b)` are never split. */
function items(form: string): string[] {
  const found: string[] = [];
  let depth = 0;
  let item = '';
  for (const char of form) {
    if (char === ' ' && depth === 0) {
      if (item !== '') found.push(item);
      item = '';
      continue;
    }
    if (char === '[' || char === '(') depth += 1;
    if (char === ']' || char === ')') depth -= 1;
    item += char;
  }
  if (item !== '') found.push(item);
  return found;
}

/** Two columns: `  --count N` and its description, wrapped; a long left column puts the description on the next line. */
function columns(rows: readonly (readonly [string, string])[], width: number): string[] {
  const column = Math.min(24, Math.max(...rows.map(([left]) => left.length)) + 2);
  return rows.flatMap(([left, text]) => {
    const wrapped = wrapWords(text, width - column, 'abbreviate');
    const lines = wrapped.map((line) => `${' '.repeat(column)}${line}`);
    if (left.length + 2 <= column) lines[0] = `${left.padEnd(column)}${wrapped[0]}`;
    else lines.unshift(left);
    return lines;
  });
}

function renderHelp(spec: CommandSpec<FlagSet>): string {
  const width = HELP_WIDTH;
  const rows = [...Object.entries(spec.flags), ['help', HELP_FLAG] as const].map(
    ([name, flag]) => [`  ${flag.short ? `-${flag.short}, ` : ''}${synopsis(name, flag)}`, `${flag.description}${facts(flag)}`] as const,
  );
  const sections = [usageLines(spec, width).join('\n'), ...paragraphs(spec.description, width)];
  if (spec.arguments) sections.push(['arguments:', ...columns([[`  ${spec.arguments.value}`, spec.arguments.description]], width)].join('\n'));
  sections.push(['options:', ...columns(rows, width)].join('\n'));
  if (spec.environment?.length)
    sections.push(
      [
        'environment:',
        ...columns(
          spec.environment.map(([name, text]) => [`  ${name}`, text] as const),
          width,
        ),
      ].join('\n'),
    );
  if (spec.epilogue) sections.push(...paragraphs(spec.epilogue, width));
  return `${sections.join('\n\n')}\n`;
}
