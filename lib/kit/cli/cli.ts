/**
 * What every hoplab command shares on the command line: exit codes (0 done,
 * 1 failed or refused, 2 bad command line, see {@link runCli}), Ctrl-C handling
 * and the question before costly or destructive work. The flags themselves are
 * declared with ./command.ts.
 * Kept free of heavy imports: `npm run synth` loads it.
 */
import { createInterface } from 'node:readline/promises';

/**
 * A bad command line: {@link runCli} prints it as one line,
 * `hoplab <command>: <message> (see npx hoplab <command> --help)`, and exits 2.
 * The message names the flag, the value and what is allowed: `--format: "xml" is not one of table, json`.
 */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The command whose command line it is (a command that hands its arguments to another: `compare --watch`). @default - the one runCli runs */
    readonly command?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The one shape of a line a command says on its own account (a refusal, what it wrote): `hoplab <command>: <text>`. */
export function commandMessage(command: string, text: string): string {
  return `hoplab ${command}: ${text}`;
}

/** The one shape of a bad command line's message, for every command. */
export function usageLine(command: string, message: string): string {
  return commandMessage(command, `${message} (see npx hoplab ${command} --help)`);
}

/**
 * An error that is already worded for the user, whole (its own heading
 * included): {@link runCli} prints its `userMessage` as it is, with no prefix.
 * Duck-typed, so the kit knows no error class of the lab's.
 */
export interface UserFacingError {
  readonly userMessage: string;
}

const userMessageOf = (error: unknown): string | undefined => {
  const message = (error as Partial<UserFacingError> | null | undefined)?.userMessage;
  return typeof message === 'string' ? message : undefined;
};

/** What this run read that its refusals depend on (which config file), said after each; see {@link sayOnRefusal}. */
let readForRefusal: string | undefined;

/**
 * Says `line` (what the command read that a refusal depends on, such as which config file, or
 * that none was found) after every refusal of this run: a failure (exit 1), or a bad command line
 * found after it was read (exit 2). The last line given counts.
 */
export function sayOnRefusal(line: string): void {
  readForRefusal = line;
}

/** The line {@link sayOnRefusal} was given, as runCli prints it after a refusal of `command`; undefined when none was. */
export function refusalNote(command: string): string | undefined {
  return readForRefusal === undefined ? undefined : commandMessage(command, readForRefusal);
}

/**
 * Runs a command's main: a bad command line exits 2 with {@link usageLine}; a bad config or a
 * refused request exits 1, each with one clear message (never a stack trace), followed by what
 * the command read that the refusal depends on ({@link sayOnRefusal}: which config file).
 */
export function runCli(command: { readonly name: string }, main: () => Promise<number> | number): void {
  const note = () => {
    const line = refusalNote(command.name);
    if (line !== undefined) console.error(line);
  };
  Promise.resolve()
    .then(main)
    .then(
      (code) => {
        if (code !== 0) note();
        return exitWhenWritten(code);
      },
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        if (error instanceof UsageError) {
          console.error(usageLine(error.command ?? command.name, message));
          note();
          return exitWhenWritten(2);
        }
        console.error(userMessageOf(error) ?? `hoplab: ${message}`);
        note();
        return exitWhenWritten(1);
      },
    );
}

/**
 * Exits with `code` once stdout and stderr have taken everything written to them: a pipe is
 * written asynchronously on some systems (macOS), and process.exit would cut a long report
 * (explain --format json | jq) short. A write's callback comes after the writes before it.
 */
function exitWhenWritten(code: number): void {
  let waiting = 2;
  const done = () => {
    waiting -= 1;
    if (waiting === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}

/**
 * Ctrl-C (or SIGTERM) once: abort the returned controller, after saying what
 * the command now does (`doing`); twice: exit 130 at once. One Ctrl-C that
 * arrives twice (from the terminal and forwarded by npm) counts once.
 */
export function abortOnSignals(command: string, doing: string): AbortController {
  const controller = new AbortController();
  let count = 0;
  let firstAt = 0;
  const handler = (signal: NodeJS.Signals) => {
    if (count === 1 && Date.now() - firstAt < 1500) return;
    count += 1;
    firstAt = firstAt || Date.now();
    if (count > 1) {
      console.error(`\nhoplab ${command}: second ${signal}, exiting now`);
      process.exit(130);
    }
    console.error(`\nhoplab ${command}: ${signal} received; ${doing} (press Ctrl-C again to exit at once)`);
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
