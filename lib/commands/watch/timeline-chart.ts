/**
 * A chart of one exposure's traffic over time for `watch --html`, as
 * self-contained SVG drawn here (no chart library, no script): latency p50
 * and p99 per interval as two lines in the upper panel, the failed requests
 * per interval as bars in the lower panel, and the changes (errors started
 * or stopped, the client-IP verdict flipped) as numbered dashed lines across
 * both, listed in words under the chart. An interval without a successful
 * request has no latency: its lines break there rather than draw a zero.
 */
import { escapeHtml } from '../../kit/svg/html-page';
import { INK, svgDocument, text, charsIn } from '../../kit/svg/svg';
import { wrapWords } from '../../kit/text/wrap';

/** One interval of one exposure. */
export interface TimelinePoint {
  /** End of the interval, milliseconds since the watch began. */
  readonly t_ms: number;
  /** Latency of the interval's successful requests; `null` without one. */
  readonly p50_ms: number | null;
  readonly p99_ms: number | null;
  /** Requests that failed in the interval. */
  readonly errors: number;
}

/** A change to mark on the time axis. */
export interface TimelineMark {
  readonly t_ms: number;
  readonly text: string;
  /** Errors (red) or the verdict (amber). */
  readonly kind: 'errors' | 'verdict';
}

export interface TimelineChartProps {
  /** The exposure (the `<title>`). */
  readonly title: string;
  readonly points: readonly TimelinePoint[];
  /** @default - none */
  readonly marks?: readonly TimelineMark[];
}

export const CHART = {
  width: 960,
  left: 70,
  right: 900,
  /** The latency panel. */
  latencyTop: 40,
  latencyBottom: 240,
  /** The errors panel. */
  errorsTop: 270,
  errorsBottom: 340,
  /** The time axis labels. */
  axis: 362,
} as const;

export const SERIES = { p50: '#0645ad', p99: '#b35900', errors: INK.snat, verdict: INK.dnat } as const;

/** The smallest 1, 2 or 5 × 10^k at or above `value` (at least 1). */
export function niceCeiling(value: number): number {
  if (!(value > 1)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) {
    if (step * power >= value - 1e-9) return step * power;
  }
  return 10 * power;
}

/** `mm:ss` of milliseconds. */
export function chartTime(tMs: number): string {
  const s = Math.round(tMs / 1000);
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

const r = (n: number) => Math.round(n * 10) / 10;

/** The x of a time: 0 at the left edge, `span` at the right. */
export function xOf(tMs: number, span: number): number {
  return r(CHART.left + (Math.max(0, tMs) / Math.max(1, span)) * (CHART.right - CHART.left));
}

function yIn(value: number, max: number, top: number, bottom: number): number {
  return r(bottom - (value / max) * (bottom - top));
}

/**
 * The `points` attribute of each polyline of one series: consecutive
 * intervals that have a value, a new polyline after an interval without one.
 */
export function seriesPolylines(points: readonly TimelinePoint[], key: 'p50_ms' | 'p99_ms', span: number, max: number): string[] {
  const runs: string[][] = [];
  let current: string[] | undefined;
  for (const p of points) {
    const v = p[key];
    if (v === null) {
      current = undefined;
      continue;
    }
    if (!current) {
      current = [];
      runs.push(current);
    }
    current.push(`${xOf(p.t_ms, span)},${yIn(v, max, CHART.latencyTop, CHART.latencyBottom)}`);
  }
  return runs.map((run) => run.join(' '));
}

/** Ticks of a time axis from 0 to `span`: about six, on whole seconds. */
export function timeTicks(span: number): number[] {
  const seconds = Math.max(1, span / 1000);
  const step = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200].find((s) => seconds / s <= 6) ?? 14_400;
  const ticks: number[] = [];
  for (let s = 0; s <= seconds + 1e-9; s += step) ticks.push(s * 1000);
  return ticks;
}

/** The chart of one exposure; with no point, or no interval that sent anything, a chart that says "no data". */
export function timelineChartSvg({ title, points, marks = [] }: TimelineChartProps): string {
  const hasData = points.some((p) => p.p50_ms !== null || p.p99_ms !== null || p.errors > 0);
  if (!hasData) {
    return svgDocument(CHART.width, 120, `${title}: no data`, `No request of ${title} was answered while watch ran.`, [
      `<rect x="${CHART.left}" y="20" width="${CHART.right - CHART.left}" height="80" fill="#f7f7f7" stroke="${INK.muted}" stroke-width="1"/>`,
      text(CHART.width / 2, 67, 'no data: no request was answered while watch ran', { size: 18, anchor: 'middle', fill: INK.muted }),
    ]);
  }
  const span = Math.max(1000, ...points.map((p) => p.t_ms), ...marks.map((m) => m.t_ms));
  const latencyMax = niceCeiling(Math.max(1, ...points.flatMap((p) => [p.p50_ms ?? 0, p.p99_ms ?? 0])));
  const errorsMax = niceCeiling(Math.max(1, ...points.map((p) => p.errors)));
  const content: string[] = [];
  const { left, right, latencyTop, latencyBottom, errorsTop, errorsBottom, axis } = CHART;

  // Panels, horizontal grid and the value axes.
  content.push(`<rect x="${left}" y="${latencyTop}" width="${right - left}" height="${latencyBottom - latencyTop}" fill="#fbfbfb" stroke="${INK.line}" stroke-width="1"/>`);
  content.push(`<rect x="${left}" y="${errorsTop}" width="${right - left}" height="${errorsBottom - errorsTop}" fill="#fbfbfb" stroke="${INK.line}" stroke-width="1"/>`);
  for (const fraction of [0, 0.5, 1]) {
    const value = latencyMax * fraction;
    const y = yIn(value, latencyMax, latencyTop, latencyBottom);
    if (fraction > 0) content.push(`<line x1="${left}" y1="${y}" x2="${right}" y2="${y}" stroke="#d0d0d0" stroke-width="1"/>`);
    content.push(text(left - 6, r(y + 5), `${r(value)}`, { size: 13, anchor: 'end', fill: INK.muted }));
  }
  content.push(text(left - 6, errorsTop + 12, `${errorsMax}`, { size: 13, anchor: 'end', fill: INK.muted }));
  content.push(text(left - 6, errorsBottom + 4, '0', { size: 13, anchor: 'end', fill: INK.muted }));
  content.push(text(left, latencyTop - 10, 'latency, ms (successful requests of each interval)', { size: 14, weight: 'bold' }));
  content.push(text(left, errorsTop - 8, 'failed requests per interval', { size: 14, weight: 'bold', fill: SERIES.errors }));

  // Time axis.
  for (const t of timeTicks(span)) {
    const x = xOf(t, span);
    content.push(`<line x1="${x}" y1="${errorsBottom}" x2="${x}" y2="${errorsBottom + 5}" stroke="${INK.line}" stroke-width="1"/>`);
    content.push(text(x, axis, chartTime(t), { size: 13, anchor: 'middle', fill: INK.muted }));
  }

  // Errors: one bar per interval, as wide as the interval allows.
  const slot = (right - left) / Math.max(1, points.length);
  const barWidth = r(Math.max(2, Math.min(24, slot * 0.6)));
  for (const p of points) {
    if (p.errors <= 0) continue;
    const y = yIn(p.errors, errorsMax, errorsTop, errorsBottom);
    content.push(
      `<rect x="${r(Math.min(right - barWidth, Math.max(left, xOf(p.t_ms, span) - barWidth / 2)))}" y="${y}" width="${barWidth}" height="${r(errorsBottom - y)}" fill="${SERIES.errors}">` +
        `<title>${escapeHtml(`${chartTime(p.t_ms)}: ${p.errors} failed`)}</title></rect>`,
    );
  }

  // Latency lines (p99 dashed, so the two differ without colour).
  for (const [key, color, dash] of [
    ['p99_ms', SERIES.p99, ' stroke-dasharray="7 4"'],
    ['p50_ms', SERIES.p50, ''],
  ] as const) {
    for (const line of seriesPolylines(points, key, span, latencyMax)) {
      const single = !line.includes(' ');
      if (single) {
        const [x, y] = line.split(',');
        content.push(`<circle cx="${x}" cy="${y}" r="3.5" fill="${color}"/>`);
      } else {
        content.push(`<polyline data-series="${key === 'p50_ms' ? 'p50' : 'p99'}" points="${line}" fill="none" stroke="${color}" stroke-width="2.5"${dash}/>`);
      }
    }
  }

  // Changes: numbered dashed lines across both panels.
  marks.forEach((m, i) => {
    const x = xOf(m.t_ms, span);
    const color = m.kind === 'errors' ? SERIES.errors : SERIES.verdict;
    content.push(`<line x1="${x}" y1="${latencyTop}" x2="${x}" y2="${errorsBottom}" stroke="${color}" stroke-width="1.5" stroke-dasharray="4 3"/>`);
    content.push(`<circle cx="${x}" cy="${latencyTop}" r="9" fill="#ffffff" stroke="${color}" stroke-width="1.5"/>`);
    content.push(text(x, latencyTop + 4, `${i + 1}`, { size: 11, anchor: 'middle', weight: 'bold', fill: color }));
  });

  // Legend and the changes in words.
  let y = axis + 28;
  content.push(`<line x1="${left}" y1="${y - 5}" x2="${left + 30}" y2="${y - 5}" stroke="${SERIES.p50}" stroke-width="2.5"/>`);
  content.push(text(left + 36, y, 'p50', { size: 14 }));
  content.push(`<line x1="${left + 90}" y1="${y - 5}" x2="${left + 120}" y2="${y - 5}" stroke="${SERIES.p99}" stroke-width="2.5" stroke-dasharray="7 4"/>`);
  content.push(text(left + 126, y, 'p99', { size: 14 }));
  content.push(`<rect x="${left + 180}" y="${y - 12}" width="14" height="12" fill="${SERIES.errors}"/>`);
  content.push(text(left + 200, y, 'failed requests', { size: 14 }));
  content.push(text(left + 340, y, marks.length ? 'numbered lines: the changes below' : 'no change while watch ran', { size: 14, fill: INK.muted }));
  for (const [i, m] of marks.entries()) {
    const lines = wrapWords(`${i + 1}. ${chartTime(m.t_ms)} ${m.text}`, charsIn(right - left, 14), 'punctuation');
    y += 20;
    content.push(text(left, y, lines, { size: 14, fill: m.kind === 'errors' ? SERIES.errors : SERIES.verdict }));
    y += (lines.length - 1) * 18;
  }
  const height = y + 16;
  const failed = points.reduce((a, p) => a + p.errors, 0);
  return svgDocument(
    CHART.width,
    height,
    title,
    `${title}: latency p50 and p99 per interval up to ${latencyMax} ms, ${failed} failed requests, ${marks.length} changes, over ${chartTime(span)}.`,
    content,
  );
}
