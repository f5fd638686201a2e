/**
 * `expect(run).toExitWith(code)`: the exit code of a watched run (runCommand,
 * terraformIn), and when it is not the one expected, what a reader of CI's
 * output needs to see why without the machine: the last lines of the command's
 * output and, from each Terraform log it wrote, its first error (or its last
 * lines). A bare `expect(run.code).toBe(0)` says only "Received: 1".
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { WatchedRun } from './watchdog';

/** Lines of the command's own output shown. */
const OUTPUT_LINES = 30;
/** Lines of each log shown, from its first `Error:` (Terraform's diagnostics), else its last lines. */
const LOG_LINES = 25;

/** The part of one log a failure shows: from its first Terraform error, or its end. */
export function logExcerpt(text: string, lines = LOG_LINES): string[] {
  const all = text.replace(/\s+$/, '').split('\n');
  const error = all.findIndex((line) => /^(│ )?Error: /.test(line));
  return error >= 0 ? all.slice(error, error + lines) : all.slice(-lines);
}

/** What a failed exit-code expectation prints. */
export function describeRun(run: WatchedRun): string {
  const parts = [`${run.what}`, `--- its output, last ${OUTPUT_LINES} lines ---`, ...run.out.replace(/\s+$/, '').split('\n').slice(-OUTPUT_LINES)];
  for (const file of run.logs) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    parts.push(`--- ${basename(file)} ---`, ...logExcerpt(text));
  }
  return parts.join('\n');
}

expect.extend({
  toExitWith(run: WatchedRun, code: number) {
    const pass = run.code === code;
    return {
      pass,
      message: () => (pass ? `expected ${run.what} not to exit with ${code}` : `expected exit code ${code}, got ${run.code}:\n${describeRun(run)}`),
    };
  },
});

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    interface Matchers<R> {
      /** The watched run exited with `code`; otherwise the message shows its output's end and its Terraform logs' errors. */
      toExitWith(code: number): R;
    }
  }
}
