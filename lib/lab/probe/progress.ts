/**
 * Progress while probing, on stderr (stdout stays the report). Exposures are
 * probed at the same time, so a terminal that can be redrawn (`redrawEnabled`:
 * a TTY, `TERM` not `dumb`) gets one bar for all of them, redrawn in place by
 * the kit's live region, with a line above it for each exposure as it
 * finishes; anything else gets a start and an end line per exposure.
 */
import { LiveRegion } from '../../kit/terminal/live-region';
import { plural, redrawEnabled, TerminalEnv, WritableTerminal } from '../../kit/terminal/terminal';

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

const BAR = 24;

export function progressReporter(stream: WritableTerminal, env: TerminalEnv = process.env): ProbeProgress {
  const region = redrawEnabled(stream, env) ? new LiveRegion(stream, { env }) : undefined;
  let exposures = 0;
  let finishedExposures = 0;
  let total = 0;
  let finished = 0;
  let failed = 0;
  /** Per exposure: requests planned and finished, so an exposure given up early takes its unsent requests off the bar. */
  const perLabel = new Map<string, { planned: number; finished: number }>();
  const bar = () => {
    const filled = total === 0 ? BAR : Math.round((finished / total) * BAR);
    return (
      `  probing ${exposures === 1 ? '1 exposure' : `${exposures} exposures`} [${'#'.repeat(filled)}${'.'.repeat(BAR - filled)}] ${finished}/${total}` +
      (failed ? ` (${failed} failed)` : '') +
      (exposures > 1 ? `, ${finishedExposures}/${exposures} done` : '')
    );
  };
  return {
    start(label, count) {
      exposures += 1;
      total += count;
      perLabel.set(label, { planned: count, finished: 0 });
      if (region) region.render([bar()]);
      else stream.write(`compare: probing ${label}: ${plural(count, 'request')}\n`);
    },
    tick(label, ok) {
      const counts = perLabel.get(label);
      if (counts) counts.finished += 1;
      finished += 1;
      failed += ok ? 0 : 1;
      region?.render([bar()]);
    },
    done(label, summary) {
      finishedExposures += 1;
      const counts = perLabel.get(label);
      if (counts && counts.finished < counts.planned) total -= counts.planned - counts.finished;
      // The last exposure's line ends the output: no bar is left behind it.
      if (region) region.render(finishedExposures < exposures ? [bar()] : [], [`  ${label}: ${summary}`]);
      else stream.write(`compare: ${label}: ${summary}\n`);
    },
  };
}
