/**
 * `watch --html FILE`: the timeline as one self-contained page, written when
 * the watch ends. {@link TimelineRecorder} collects, per exposure and per
 * interval, the latencies and failures of the requests that ended in it
 * (from the watch's `onSample`), and the frames' events; {@link watchPage}
 * draws per exposure a chart (latency p50/p99 and failed requests per
 * interval, the changes marked on the time axis) and a summary table.
 */
import { htmlPage, escapeHtml } from '../../kit/svg/html-page';
import { TimelineMark, TimelinePoint, timelineChartSvg, chartTime } from './timeline-chart';
import { latencyStats } from '../../lab/probe/stats';
import { Sample } from '../../lab/probe/probe';
import { ExposureSnapshot, WatchEvent, WatchFrame, WatchResult } from './watch';
import { verdictOf } from './render-watch';

/** One exposure's timeline. */
export interface ExposureTimeline {
  readonly label: string;
  readonly points: TimelinePoint[];
  readonly events: WatchEvent[];
  /** Latencies of every successful request, ms. */
  readonly latencies: number[];
  /** Failures by kind over the whole run. */
  readonly errors: Record<string, number>;
  /** The last snapshot (why not probed). */
  last?: ExposureSnapshot;
  /** The last snapshot that measured the client-IP verdict. */
  measured?: ExposureSnapshot;
}

/** Collects what the page shows while the watch runs. */
export class TimelineRecorder {
  private readonly timelines = new Map<string, ExposureTimeline>();
  private readonly pending = new Map<string, { latencies: number[]; errors: number }>();
  private order: string[] = [];

  private timeline(label: string): ExposureTimeline {
    let t = this.timelines.get(label);
    if (!t) {
      t = { label, points: [], events: [], latencies: [], errors: {} };
      this.timelines.set(label, t);
    }
    return t;
  }

  /** A request ended (the watch's `onSample`). */
  sample(label: string, sample: Sample): void {
    const interval = this.pending.get(label) ?? { latencies: [], errors: 0 };
    this.pending.set(label, interval);
    const t = this.timeline(label);
    if (sample.ok) {
      interval.latencies.push(sample.ms);
      t.latencies.push(sample.ms);
    } else {
      interval.errors += 1;
      t.errors[sample.error] = (t.errors[sample.error] ?? 0) + 1;
    }
  }

  /** A snapshot (the watch's `onFrame`): closes the interval of every exposure. */
  frame(frame: WatchFrame): void {
    if (this.order.length === 0) this.order = frame.exposures.map((s) => s.label);
    for (const s of frame.exposures) {
      const t = this.timeline(s.label);
      t.last = s;
      if (s.client_ip_via !== null) t.measured = s;
      if (s.not_probed_because !== null) continue;
      const interval = this.pending.get(s.label) ?? { latencies: [], errors: 0 };
      this.pending.delete(s.label);
      const stats = latencyStats(interval.latencies);
      t.points.push({ t_ms: frame.t_ms, p50_ms: stats?.p50 ?? null, p99_ms: stats?.p99 ?? null, errors: interval.errors });
    }
    for (const e of frame.events) this.timeline(e.label).events.push(e);
  }

  /** The timelines, in the snapshots' order of exposures (compare's order). */
  all(): ExposureTimeline[] {
    const order = this.order;
    const rank = (label: string) => (order.includes(label) ? order.indexOf(label) : order.length);
    return [...this.timelines.values()].sort((a, b) => rank(a.label) - rank(b.label));
  }
}

/** The changes the chart marks: errors starting or stopping, the verdict flipping. */
export function chartMarks(events: readonly WatchEvent[]): TimelineMark[] {
  return events
    .filter((e) => e.kind === 'errors-started' || e.kind === 'errors-stopped' || e.kind === 'verdict-changed')
    .map((e) => ({ t_ms: e.t_ms, text: e.text, kind: e.kind === 'verdict-changed' ? 'verdict' : 'errors' }));
}

const CSS = `
.summary td.num { text-align: right; font-variant-numeric: tabular-nums; }
section.exposure { margin-bottom: 2.5rem; }
`;

function ms(value: number | undefined): string {
  return value === undefined ? '-' : `${value} ms`;
}

/** The whole page. */
export function watchPage(timelines: readonly ExposureTimeline[], result: WatchResult, settings: { readonly intervalMs: number }): string {
  const sent = new Map(result.exposures.map((e) => [e.label, e]));
  const sections = timelines.map((t) => {
    const heading = `<h2>${escapeHtml(t.label)}</h2>`;
    if (t.last?.not_probed_because) {
      return `<section class="exposure">${heading}<p class="muted">not probed: ${escapeHtml(t.last.not_probed_because)}</p></section>`;
    }
    const totals = sent.get(t.label);
    const stats = latencyStats(t.latencies);
    const failed = Object.values(t.errors).reduce((a, b) => a + b, 0);
    const errorKinds = Object.entries(t.errors)
      .map(([kind, n]) => `${n} ${kind}`)
      .join(', ');
    const verdict = t.measured ? verdictOf(t.measured) : 'not measured';
    const rows: [string, string, string?][] = [
      ['requests sent', `${totals?.sent ?? t.latencies.length + failed}`],
      ['answered', `${t.latencies.length}`],
      ['failed', failed === 0 ? '0' : `${failed} (${errorKinds})`, failed > 0 ? 'bad' : undefined],
      ['latency p50, whole run', ms(stats?.p50)],
      ['latency p99, whole run', ms(stats?.p99)],
      ['client-IP verdict, last measured', verdict, verdict.includes('MISMATCH') ? 'warn' : undefined],
      ['changes', `${t.events.length}`],
    ];
    const table =
      '<table class="summary"><tbody>' +
      rows.map(([k, v, cls]) => `<tr><th scope="row">${escapeHtml(k)}</th><td${cls ? ` class="${cls}"` : ''}>${escapeHtml(v)}</td></tr>`).join('') +
      '</tbody></table>';
    const changes = t.events.length ? `<h3>Changes</h3><ul>${t.events.map((e) => `<li>${escapeHtml(`${chartTime(e.t_ms)} ${e.text}`)}</li>`).join('')}</ul>` : '';
    const chart = timelineChartSvg({ title: t.label, points: t.points, marks: chartMarks(t.events) });
    return `<section class="exposure">${heading}<figure>${chart}<figcaption>${escapeHtml(
      `${t.label}: latency p50 and p99 of the requests answered in each ${settings.intervalMs / 1000} s interval, failed requests per interval, changes numbered.`,
    )}</figcaption></figure>${table}${changes}</section>`;
  });
  const intro = `<p>${escapeHtml(
    `watch ${result.stopped ? 'stopped (Ctrl-C)' : 'ran'} for ${(result.duration_ms / 1000).toFixed(1)} s: ${result.frames} snapshots, ` +
      `${result.rate_per_exposure} requests per second per exposure, ${result.events.length} changes.`,
  )}</p>`;
  return htmlPage({
    title: 'hoplab watch: the traffic over time',
    css: CSS,
    body: `<h1>hoplab watch: the traffic over time</h1>\n${intro}\n${sections.join('\n') || '<p>no exposure was watched</p>'}`,
  });
}
