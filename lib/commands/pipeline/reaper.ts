/**
 * The reaper's schedule: when the scheduled job runs and how it decides
 * whether to run `npx hoplab reap --yes`.
 *
 * Cron has no year, and a CI's cron runs late or not at all at busy times
 * (GitHub: "The `schedule` event can be delayed during periods of high loads
 * ... some queued jobs may be dropped", events that trigger workflows,
 * https://docs.github.com/en/actions/reference/workflows-and-actions/events-that-trigger-workflows#schedule,
 * read 2026-12-07). So the schedule only says when to look: every hour at
 * :17 (not on the hour, GitHub's busiest minute) on the calendar days from
 * `workshop.expiresAt` to {@link REAP_WINDOW_HOURS} after it; and the job
 * itself checks the date, with the year: it reaps only inside that window.
 * The same days come round every year; then the check finds the window long
 * past and does nothing (no credentials, no cloud), with a warning that
 * names the stale file.
 */

/** How long after `workshop.expiresAt` the scheduled job still reaps: about 72 hourly tries, each of which may be late or dropped. */
export const REAP_WINDOW_HOURS = 72;

/** The minute of the hour the schedule runs at. */
export const REAP_MINUTE = 17;

/** The variables the date check reads (set in the generated job). */
export const REAP_VARIABLES = { expiresAt: 'HOPLAB_EXPIRES_AT', windowHours: 'HOPLAB_REAP_WINDOW_HOURS' } as const;

const HOUR_MS = 3_600_000;

/** `2026-12-01` */
const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The cron lines (UTC) of the schedule: hourly at :{@link REAP_MINUTE} on
 * each calendar day from `expiresAt` to `expiresAt` + `windowHours`, one line
 * per month the window touches (`17 * 30,31 12 *`, `17 * 1,2 1 *`).
 */
export function reapCrons(expiresAt: string, windowHours = REAP_WINDOW_HOURS): string[] {
  const start = new Date(expiresAt);
  const end = new Date(start.getTime() + windowHours * HOUR_MS);
  const days = new Map<number, number[]>();
  const cursor = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate()));
  while (day(cursor) <= day(end)) {
    const month = cursor.getUTCMonth() + 1;
    days.set(month, [...(days.get(month) ?? []), cursor.getUTCDate()]);
    cursor.setUTCDate(cursor.getUTCDate() + 1);
  }
  return [...days].map(([month, dates]) => `${REAP_MINUTE} * ${dates.join(',')} ${month} *`);
}

/** When the window closes: `expiresAt` + `windowHours`, ISO 8601 UTC. */
export function reapUntil(expiresAt: string, windowHours = REAP_WINDOW_HOURS): string {
  return new Date(new Date(expiresAt).getTime() + windowHours * HOUR_MS).toISOString().replace('.000Z', 'Z');
}

/**
 * The date check, a POSIX shell script (GNU `date`, as on GitHub's Ubuntu
 * runners and the Debian node image): reads {@link REAP_VARIABLES} and runs
 * `notDue` when the workshop has not ended or ended more than the window ago
 * (a schedule left from an earlier year), `due` otherwise. `warning` starts
 * the stale line (GitHub's `::warning::` makes it an annotation); `stale`
 * names what to delete.
 */
export function dueCheckScript(actions: { readonly notDue: string; readonly due: string; readonly warning: string }, stale: string): string {
  const { expiresAt, windowHours } = REAP_VARIABLES;
  return [
    'now=$(date -u +%s)',
    `expires=$(date -u -d "$${expiresAt}" +%s)`,
    `end=$((expires + $${windowHours} * 3600))`,
    'if [ "$now" -lt "$expires" ]; then',
    `  echo "not due: the workshop ends at $${expiresAt} (workshop.expiresAt); nothing reaped"`,
    `  ${actions.notDue}`,
    'elif [ "$now" -ge "$end" ]; then',
    `  echo "${actions.warning}stale: this schedule is for a workshop that ended at $${expiresAt}, more than $${windowHours} hours ago (cron has no year); nothing reaped. Delete ${stale} or regenerate it for the next workshop (npx hoplab pipeline)"`,
    `  ${actions.notDue}`,
    'else',
    `  echo "due: the workshop ended at $${expiresAt} (workshop.expiresAt); reaping"`,
    `  ${actions.due}`,
    'fi',
  ].join('\n');
}
