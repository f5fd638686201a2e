/** The progress report: a table per attendee and exercise that fits 80 columns, a summary per exercise; or JSON. */
import { textTable } from '../../kit/terminal/text-table';
import { exerciseLabel } from '../../lab/progress/checks';
import { AttendeeProgress } from '../../lab/progress/progress';

/** The report as text. */
export function progressTable(progress: readonly AttendeeProgress[], width = 80): string {
  const rows = progress.flatMap((p) => (p.why ? [[p.attendee, '(all)', 'could not check', p.why]] : p.exercises.map((e, i) => [i === 0 ? p.attendee : '', exerciseLabel(e), e.status, e.why])));
  const ids = [...new Set(progress.flatMap((p) => p.exercises.map((e) => e.id)))];
  const summary = ids.map((id) => {
    const results = progress.flatMap((p) => p.exercises.filter((e) => e.id === id));
    const done = results.filter((e) => e.status === 'done').length;
    const unknown = results.filter((e) => e.status === 'could not check').length;
    if (results.every((e) => e.status === 'not checkable')) return `  ${id}: not checkable`;
    return `  ${id}: ${done} of ${results.length} done${unknown ? `, ${unknown} could not be checked` : ''}`;
  });
  return [
    rows.length > 0 ? textTable(['attendee', 'exercise', 'status', 'why'], rows, { width, rules: 'header' }) : 'hoplab progress: no exercise to check',
    ...(summary.length > 0 ? ['', `${progress.length} attendee${progress.length === 1 ? '' : 's'}:`, ...summary] : []),
    '',
  ].join('\n');
}

/** The report as JSON: its schema, when it was read, per attendee each exercise with its cloud, exposure, status and why. */
export function progressJson(progress: readonly AttendeeProgress[], now: Date): string {
  return `${JSON.stringify({ schema: 'hoplab.progress/v1', checked_at: now.toISOString(), attendees: progress }, null, 2)}\n`;
}
