/**
 * Progress while probing, on stderr (stdout stays the report). Exposures are
 * probed at the same time, so a terminal gets one bar for all of them,
 * redrawn in place, with a line for each exposure as it finishes; anything
 * else gets a start and an end line per exposure.
 */
import { plural, terminalWidth } from '../../kit/terminal/terminal';

export interface ProbeProgress {
  /** An exposure starts: `total` requests planned. */
  start(label: string, total: number): void;
  /** One request of that exposure finished. */
  tick(label: string, ok: boolean): void;
  /** That exposure is done. */
  done(label: string, summary: string): void;
}

/** Writes nothing; for tests and `--quiet` use. */
export const SILENT_PROGRESS: ProbeProgress = { start: () => undefined, tick: () => undefined, done: () => undefined };

export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

const BAR = 24;

export function progressReporter(stream: ProgressStream, env: Readonly<Record<string, string | undefined>> = process.env): ProbeProgress {
  let exposures = 0;
  let finishedExposures = 0;
  let total = 0;
  let finished = 0;
  let failed = 0;
  /** Per exposure: requests planned and finished, so an exposure given up early takes its unsent requests off the bar. */
  const perLabel = new Map<string, { planned: number; finished: number }>();
  const draw = () => {
    const filled = total === 0 ? BAR : Math.round((finished / total) * BAR);
    const line =
      `  probing ${exposures === 1 ? '1 exposure' : `${exposures} exposures`} [${'#'.repeat(filled)}${'.'.repeat(BAR - filled)}] ${finished}/${total}` +
      (failed ? ` (${failed} failed)` : '') +
      (exposures > 1 ? `, ${finishedExposures}/${exposures} done` : '');
    stream.write(`\r\x1b[K${line.slice(0, Math.max(1, terminalWidth(stream, env) - 1))}`);
  };
  return {
    start(label, count) {
      exposures += 1;
      total += count;
      perLabel.set(label, { planned: count, finished: 0 });
      if (stream.isTTY) {
        draw();
      } else {
        stream.write(`compare: probing ${label}: ${plural(count, 'request')}\n`);
      }
    },
    tick(label, ok) {
      const counts = perLabel.get(label);
      if (counts) counts.finished += 1;
      finished += 1;
      failed += ok ? 0 : 1;
      if (stream.isTTY) {
        draw();
      }
    },
    done(label, summary) {
      finishedExposures += 1;
      const counts = perLabel.get(label);
      if (counts && counts.finished < counts.planned) total -= counts.planned - counts.finished;
      if (!stream.isTTY) {
        stream.write(`compare: ${label}: ${summary}\n`);
        return;
      }
      stream.write(`\r\x1b[K  ${label}: ${summary}\n`);
      if (finishedExposures < exposures) draw();
    },
  };
}
