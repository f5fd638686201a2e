import { chartTime, niceCeiling, seriesPolylines, timelineChartSvg, timeTicks, TimelinePoint, xOf } from '../../../lib/commands/watch/timeline-chart';
import { externalReferences, unbalancedTags } from '../../support/pictures';

/** Four 1 s intervals: the third had no successful request (three failures), the last was slower. */
const POINTS: TimelinePoint[] = [
  { t_ms: 1000, p50_ms: 10, p99_ms: 20, errors: 0 },
  { t_ms: 2000, p50_ms: 20, p99_ms: 40, errors: 0 },
  { t_ms: 3000, p50_ms: null, p99_ms: null, errors: 3 },
  { t_ms: 4000, p50_ms: 40, p99_ms: 80, errors: 0 },
];

const MARKS = [
  { t_ms: 3000, text: 'errors started: HTTP 503', kind: 'errors' as const },
  { t_ms: 4000, text: 'client IP none/snat -> tcp-source/no-snat', kind: 'verdict' as const },
];

describe('timeline chart scales', () => {
  test.each([
    [0, 1],
    [1, 1],
    [7, 10],
    [80, 100],
    [101, 200],
    [350, 500],
    [2000, 2000],
  ])('GIVEN a largest value %d THEN the axis ends at %d', (value, max) => {
    expect(niceCeiling(value)).toBe(max);
  });

  test('GIVEN a 4 s timeline THEN x runs from the left edge (0 s) to the right edge (4 s), ticks every second', () => {
    expect([xOf(0, 4000), xOf(1000, 4000), xOf(4000, 4000)]).toEqual([70, 277.5, 900]);
    expect(timeTicks(4000)).toEqual([0, 1000, 2000, 3000, 4000]);
    expect(timeTicks(300_000)).toEqual([0, 60_000, 120_000, 180_000, 240_000, 300_000]);
    expect(chartTime(65_000)).toBe('01:05');
  });

  test('GIVEN an interval without a successful request THEN each latency line breaks there instead of dropping to zero', () => {
    expect(seriesPolylines(POINTS, 'p50_ms', 4000, 100)).toEqual(['277.5,220 485,200', '900,160']);
    expect(seriesPolylines(POINTS, 'p99_ms', 4000, 100)).toEqual(['277.5,200 485,160', '900,80']);
  });
});

describe('timelineChartSvg', () => {
  const svg = timelineChartSvg({ title: 'ann aws nodeport-local', points: POINTS, marks: MARKS });

  test('GIVEN a timeline with known points THEN the p50 and p99 polylines have the expected points and a lone point is a dot', () => {
    expect(svg).toContain('<polyline data-series="p50" points="277.5,220 485,200" fill="none" stroke="#0645ad" stroke-width="2.5"/>');
    expect(svg).toContain('<polyline data-series="p99" points="277.5,200 485,160" fill="none" stroke="#b35900" stroke-width="2.5" stroke-dasharray="7 4"/>');
    expect(svg).toContain('<circle cx="900" cy="160" r="3.5" fill="#0645ad"/>');
    expect(svg).toContain('<circle cx="900" cy="80" r="3.5" fill="#b35900"/>');
  });

  test('GIVEN three failures in the third interval THEN one bar at 00:03, three fifths of the errors panel (axis 0-5)', () => {
    const bars = svg.match(/<rect [^>]*fill="#b00020"><title>[^<]*<\/title><\/rect>/g);
    expect(bars).toHaveLength(1);
    expect(bars![0]).toContain('<title>00:03: 3 failed</title>');
    expect(bars![0]).toContain('y="298"');
    expect(svg).toMatch(/>5<\/text>/);
  });

  test('GIVEN two changes THEN they are numbered on the time axis and listed in words under the chart', () => {
    expect(svg).toContain('<line x1="692.5" y1="40" x2="692.5" y2="340" stroke="#b00020" stroke-width="1.5" stroke-dasharray="4 3"/>');
    expect(svg).toContain('<line x1="900" y1="40" x2="900" y2="340" stroke="#8a5300" stroke-width="1.5" stroke-dasharray="4 3"/>');
    expect(svg).toContain('>1. 00:03 errors started: HTTP 503</text>');
    expect(svg).toContain('>2. 00:04 client IP none/snat -&gt; tcp-source/no-snat</text>');
  });

  test('GIVEN the axes THEN latency runs 0-100 ms and time 00:00-00:04', () => {
    for (const label of ['>0</text>', '>50</text>', '>100</text>', '>00:00</text>', '>00:04</text>', '>p50</text>', '>p99</text>']) expect(svg).toContain(label);
  });

  test('GIVEN the chart THEN it is one well-formed, self-contained <svg> with its title', () => {
    expect(svg.match(/<svg /g)).toHaveLength(1);
    expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 960 \d+"[^>]*role="img"/);
    expect(svg).toContain('<title>ann aws nodeport-local</title>');
    expect(unbalancedTags(svg)).toEqual([]);
    expect(externalReferences(svg)).toEqual([]);
  });

  test.each([
    ['no interval', []],
    ['intervals without a reply or a failure', [{ t_ms: 1000, p50_ms: null, p99_ms: null, errors: 0 }]],
  ])('GIVEN %s THEN the chart says "no data"', (_, points) => {
    const empty = timelineChartSvg({ title: 'ann gcp native', points });
    expect(empty).toContain('>no data: no request was answered while watch ran</text>');
    expect(empty).toContain('<title>ann gcp native: no data</title>');
    expect(empty).not.toContain('<polyline');
    expect(unbalancedTags(empty)).toEqual([]);
  });

  test('GIVEN text with markup in a title or a change THEN it is escaped', () => {
    const nasty = timelineChartSvg({ title: '<b>x</b> & "y"', points: POINTS, marks: [{ t_ms: 1000, text: 'errors started: <script>', kind: 'errors' }] });
    expect(nasty).not.toContain('<script>');
    expect(nasty).not.toContain('<b>');
    expect(nasty).toContain('&lt;b&gt;x&lt;/b&gt; &amp; &quot;y&quot;');
    expect(nasty).toContain('errors started: &lt;script&gt;');
  });
});
