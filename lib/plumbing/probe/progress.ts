/**
 * Progress while probing, on stderr (stdout stays the report): a bar redrawn
 * in place on a terminal, a start and an end line otherwise.
 */
import { plural } from '../cli/terminal';

export interface ProbeProgress {
  start(label: string, total: number): void;
  /** One request finished. */
  tick(ok: boolean): void;
  done(summary: string): void;
}

/** Writes nothing; for tests and `--quiet` use. */
export const SILENT_PROGRESS: ProbeProgress = { start: () => undefined, tick: () => undefined, done: () => undefined };

export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

const BAR = 24;

export function progressReporter(stream: ProgressStream): ProbeProgress {
  let label = '';
  let total = 0;
  let finished = 0;
  let failed = 0;
  const draw = () => {
    const filled = total === 0 ? BAR : Math.round((finished / total) * BAR);
    stream.write(`\r\x1b[K  ${label} [${'#'.repeat(filled)}${'.'.repeat(BAR - filled)}] ${finished}/${total}${failed ? ` (${failed} failed)` : ''}`);
  };
  return {
    start(l, t) {
      label = l;
      total = t;
      finished = 0;
      failed = 0;
      if (stream.isTTY) {
        draw();
      } else {
        stream.write(`compare: probing ${label}: ${plural(total, 'request')}\n`);
      }
    },
    tick(ok) {
      finished += 1;
      failed += ok ? 0 : 1;
      if (stream.isTTY) {
        draw();
      }
    },
    done(summary) {
      stream.write(stream.isTTY ? `\r\x1b[K  ${label}: ${summary}\n` : `compare: ${label}: ${summary}\n`);
    },
  };
}
