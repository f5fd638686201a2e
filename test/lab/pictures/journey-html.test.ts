/**
 * The step-through's markup (lib/lab/pictures/journey-html.ts), read as
 * text: without its script it already lists every step with its source,
 * destination and rewrite (so it prints and works without script); the
 * controls wait hidden for the script; nothing names anything outside the
 * page.
 */
import { exposureJourneyHtml, JOURNEY_CSS, JOURNEY_SCRIPT, journeyHtml } from '../../../lib/lab/pictures/journey-html';
import { packetJourney } from '../../../lib/lab/pictures/journey';
import { exposureOf, externalReferences, unbalancedTags, unknownExposure } from '../../support/pictures';

const OPTIONS = { id: 'journey-demo-aws-nodeport-l4', title: "The packet's journey through nodeport-l4" };

test('GIVEN a journey THEN its section lists every step, in order, with source, destination and what rewrote it, and well-formed markup', () => {
  const journey = packetJourney(exposureOf('aws', 'nodeport-l4'));
  const html = journeyHtml(journey, OPTIONS);
  expect(unbalancedTags(html)).toEqual([]);
  expect(html.match(/<li class="journey-step"/g)).toHaveLength(journey.steps.length);
  expect([...html.matchAll(/Step (\d+) of (\d+)/g)].map((m) => `${m[1]}/${m[2]}`)).toEqual(journey.steps.map((_, i) => `${i + 1}/${journey.steps.length}`));
  for (const step of journey.steps) {
    expect(html).toContain(`<code>${step.source.address.text}:${step.source.port.text}</code>`);
    expect(html).toContain(`<code>${step.destination.address.text}:${step.destination.port.text}</code>`);
  }
  // The SNAT step says so in words, not only in colour.
  const snat = html.slice(html.indexOf('data-rewrite="dnat+snat"'));
  expect(snat.slice(0, snat.indexOf('</li>'))).toMatch(/data-role="node 1"[^>]*>.*← rewritten here.*What rewrote it:<\/strong> kube-proxy \(iptables rules\) on node 1: DNAT/);
  expect(html).toContain('address: example, drawn from 10.0.0.0/19, the node subnet');
});

test('GIVEN the page parts THEN the controls are hidden until the script shows them, the script is inline, and print shows every step', () => {
  const html = journeyHtml(packetJourney(exposureOf('gcp', 'native')), OPTIONS);
  expect(html).toContain('<div class="journey-controls" hidden>');
  expect(html).toContain('data-journey tabindex="0"');
  expect(JOURNEY_SCRIPT.startsWith('<script>\n')).toBe(true);
  expect(JOURNEY_SCRIPT).not.toMatch(/<script[^>]*src=/);
  // Only the script's class hides steps; printed, every step shows.
  expect(JOURNEY_CSS).toContain('.journey-live .journey-step { display: none; }');
  expect(JOURNEY_CSS).toMatch(/@media print \{\s*\.journey-live \.journey-step \{ display: block; \}\s*\.journey-controls \{ display: none; \}/);
  expect(externalReferences(html + JOURNEY_SCRIPT + JOURNEY_CSS)).toEqual([]);
});

test('GIVEN a title with characters HTML treats specially THEN they are escaped; GIVEN no path THEN the section says why there is no journey', () => {
  const html = exposureJourneyHtml(exposureOf('aws', 'native'), {}, { id: 'j', title: 'ann & <bob> "c"' });
  expect(html).toContain('<h5>ann &amp; &lt;bob&gt; &quot;c&quot;</h5>');
  expect(html).toContain('aria-label="ann &amp; &lt;bob&gt; &quot;c&quot;"');
  expect(journeyHtml(packetJourney(unknownExposure()), OPTIONS)).toContain('No journey: explain could not derive the path from the synthesized stacks.');
});
