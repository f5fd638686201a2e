/**
 * How `watch` shows its snapshots: a screen of rows on a terminal (redrawn in
 * place by the caller), one line per exposure per interval elsewhere, JSON
 * lines for `--format json`, and the summary at the end.
 */
import { ExposureSnapshot, WatchEvent, WatchFrame, WatchResult } from './watch';
import { Paint, Style } from '../../kit/terminal/terminal';
import { abbreviate, wrapWords } from '../../kit/text/wrap';
import { RoomCell, RoomCellState, RoomRow } from '../../lab/probe/room';

/** Events kept under the table on the live screen. */
export const EVENT_LOG_LINES = 6;

export function clockTime(tMs: number): string {
  const s = Math.floor(tMs / 1000);
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

function failures(s: ExposureSnapshot): number {
  return Object.values(s.errors).reduce((a, b) => a + b, 0);
}

function ms(value: number | null): string {
  return value === null ? '-' : `${Math.round(value)}`;
}

export function verdictOf(s: ExposureSnapshot): string {
  if (s.client_ip_via === null) return 'not measured';
  return `${s.client_ip_via}${s.source_nat === null ? '' : s.source_nat ? ', SNAT' : ', no SNAT'}${s.as_expected === false ? ' MISMATCH' : ''}`;
}

function counts(names: Readonly<Record<string, number>>, width: number): string {
  const entries = Object.entries(names);
  if (entries.length === 0) return '-';
  const text = entries.map(([name, n]) => `${name} ${n}`).join(', ');
  return text.length <= width ? text : `${entries.length} (${entries.map(([, n]) => n).join('/')})`;
}

function errorText(s: ExposureSnapshot): string {
  const n = failures(s);
  return n === 0 ? '0' : `${n} ${Object.keys(s.errors)[0]}${Object.keys(s.errors).length > 1 ? ', ...' : ''}`;
}

/** What an exposure's cell in the room says now: not probed, failing, no reply in the window yet, or its verdict against the claims. */
export function cellState(s: ExposureSnapshot): RoomCellState {
  if (s.not_probed_because !== null) return 'not-probed';
  if (s.failing) return 'errors';
  if (s.ok === 0) return 'pending';
  if (s.as_expected === false) return 'mismatch';
  return s.as_expected === true ? 'ok' : 'unmeasured';
}

/** The room of a snapshot: one row per environment (attendee), in the snapshot's order, a cell per exposure, marked where it changed. */
export function roomRows(frame: WatchFrame): RoomRow[] {
  const rows = new Map<string, RoomCell[]>();
  for (const s of frame.exposures) {
    const cells = rows.get(s.env) ?? [];
    rows.set(s.env, cells);
    cells.push({ cloud: s.cloud, mode: s.mode, state: cellState(s), changed: s.changes.length > 0 });
  }
  return [...rows.entries()].map(([env, cells]) => ({ env, cells }));
}

/** A change as the room lists it: time, attendee, cloud and exposure, what happened. */
export function changeLine(e: WatchEvent): string {
  return `${clockTime(e.t_ms)} ${e.label}: ${e.text}`;
}

/** One exposure's figures as words, for a line (no colour). */
export function snapshotLine(s: ExposureSnapshot): string {
  if (s.not_probed_because !== null) return `${s.label}: not probed: ${s.not_probed_because}`;
  return (
    `${s.label}: ${s.rps} req/s, errors ${errorText(s)}, p50 ${ms(s.p50_ms)} ms, p99 ${ms(s.p99_ms)} ms, ` +
    `pods ${Object.keys(s.pods).length}, nodes ${Object.keys(s.nodes).length}, client IP ${verdictOf(s)}`
  );
}

/** Off a terminal: per interval one line per exposure (time first), then one per event. */
export function plainLines(frame: WatchFrame): string[] {
  const t = clockTime(frame.t_ms);
  return [...frame.exposures.map((s) => `${t} ${snapshotLine(s)}`), ...frame.events.map((e) => `${t} ! ${e.label}: ${e.text}`)];
}

/** `--format json`: one object per exposure per interval, one per event, and the summary at the end (JSON lines). */
export function jsonLines(frame: WatchFrame): string[] {
  return [
    ...frame.exposures.map((s) => JSON.stringify({ schema: 'hoplab.watch/v1', type: 'interval', t_ms: frame.t_ms, index: frame.index, final: frame.final, ...s })),
    ...frame.events.map((e) => JSON.stringify({ schema: 'hoplab.watch/v1', type: 'event', ...e })),
  ];
}

export function summaryJson(result: WatchResult): string {
  const { last, events, ...rest } = result;
  return JSON.stringify({ schema: 'hoplab.watch/v1', type: 'summary', ...rest, events: events.length, last_t_ms: last?.t_ms ?? 0 });
}

/**
 * The live screen: a header, one row per exposure with its figures and the
 * client-IP verdict, under it the Pods and nodes that answered, then the last
 * events. Every line fits `width`: text is wrapped between words, a name too
 * long for its column is abbreviated (`~`), and on a narrow terminal the
 * verdict moves to the line under the row. A row that fails now (errors
 * started, not stopped) is red, a MISMATCH yellow, and a row that changed in
 * this snapshot is shown reversed.
 */
export function screenLines(frame: WatchFrame, recent: readonly WatchEvent[], width: number, paint: Paint, header: string, maxLines?: number): string[] {
  const fixed = `${'req/s'.padStart(6)} ${'err'.padStart(5)} ${'p50'.padStart(5)} ${'p99'.padStart(5)} ${'pods'.padStart(4)} ${'nodes'.padStart(5)}`;
  // One environment: it is named once above the table, and the rows say only the cloud and the exposure.
  const envs = new Set(frame.exposures.map((s) => s.env));
  const single = envs.size === 1 ? [...envs][0] : undefined;
  const rowLabel = (s: ExposureSnapshot) => (single === undefined ? s.label : `${s.cloud} ${s.mode}`);
  const label = Math.max(8, Math.min(Math.max(8, ...frame.exposures.map((s) => rowLabel(s).length)), width - fixed.length - 1));
  const rest = width - label - 1 - fixed.length - 2;
  const verdictColumn = rest >= 30;
  /** Lines of `text` within the width, starting at `indent`, continuation lines two columns further in. */
  const wrap = (text: string, indent: string) => wrapWords(text, Math.max(1, width - indent.length - 2), 'abbreviate').map((line, i) => `${indent}${i === 0 ? '' : '  '}${line}`);
  const lines = [
    ...wrap(single === undefined ? header : `${header}; environment ${single}`, ''),
    paint(`${'exposure'.padEnd(label)} ${fixed}${verdictColumn ? '  client IP' : ''}`.slice(0, width), 'bold'),
  ];
  for (const s of frame.exposures) {
    const name = abbreviate(rowLabel(s), label).padEnd(label);
    if (s.not_probed_because !== null) {
      lines.push(...wrap(`${s.label}: not probed: ${s.not_probed_because}`, '').map((l) => paint(l, 'dim')));
      continue;
    }
    if (width < 8 + 1 + fixed.length) {
      // Narrower than the table: the row as words.
      lines.push(...wrap(snapshotLine(s), '').map((l) => (s.changes.length > 0 ? paint(l, 'reverse') : l)));
      continue;
    }
    const n = failures(s);
    const cells =
      `${String(s.rps).padStart(6)} ${String(n).padStart(5)} ${ms(s.p50_ms).padStart(5)} ${ms(s.p99_ms).padStart(5)} ` +
      `${String(Object.keys(s.pods).length).padStart(4)} ${String(Object.keys(s.nodes).length).padStart(5)}`;
    const styles: Style[] = [];
    if (s.failing) styles.push('red');
    else if (s.as_expected === false) styles.push('yellow');
    if (s.changes.length > 0) styles.push('reverse');
    const row = `${name} ${cells}${verdictColumn ? `  ${verdictOf(s)}` : ''}`;
    lines.push(styles.length ? paint(row, ...styles) : row);
    const detail = `${verdictColumn ? '' : `client IP ${verdictOf(s)}; `}Pods: ${counts(s.pods, 60)}; nodes: ${counts(s.nodes, 60)}${
      n > 0
        ? `; errors: ${Object.entries(s.errors)
            .map(([e, k]) => `${k} ${e}`)
            .join(', ')}`
        : ''
    }`;
    lines.push(...wrap(detail, '    ').map((l) => paint(l, 'dim')));
  }
  lines.push('');
  lines.push(paint(recent.length ? 'changes:' : 'changes: none yet', 'bold'));
  for (const e of recent.slice(-EVENT_LOG_LINES)) {
    lines.push(...wrap(changeLine(e), '  ').map((l) => paint(l, e.kind === 'errors-started' ? 'red' : 'yellow')));
  }
  // A frame taller than the screen cannot be redrawn in place: keep its top and say where the rest is.
  if (maxLines !== undefined && lines.length > maxLines) {
    return [...lines.slice(0, Math.max(1, maxLines - 1)), ...wrap('(more lines than the terminal has: make it taller, or use --exposure or --env)', '').slice(0, 1)];
  }
  return lines;
}

/** The end: per exposure what was sent and answered, the last window's figures, and how many changes. */
export function summaryLines(result: WatchResult): string[] {
  const lines = [
    `watch: ${result.stopped ? 'stopped' : 'done'} after ${(result.duration_ms / 1000).toFixed(1)} s, ${result.frames} snapshots, ${result.rate_per_exposure} req/s per exposure, ${
      result.events.length
    } changes`,
  ];
  const last = new Map((result.last?.exposures ?? []).map((s) => [s.label, s]));
  for (const e of result.exposures) {
    const s = last.get(e.label);
    if (s?.not_probed_because) {
      lines.push(`  ${e.label}: not probed: ${s.not_probed_because}`);
      continue;
    }
    lines.push(
      `  ${e.label}: ${e.sent} sent, ${e.ok} ok, ${e.failed} failed${e.skipped ? `, ${e.skipped} skipped (still in flight)` : ''}` +
        (s ? `; last window p50 ${ms(s.p50_ms)} ms, p99 ${ms(s.p99_ms)} ms, client IP ${verdictOf(s)}` : ''),
    );
  }
  return lines;
}
