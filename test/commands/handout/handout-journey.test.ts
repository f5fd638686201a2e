/**
 * The handout's page carries the packet's journey of each of the attendee's
 * exposures (the step-through of lib/lab/pictures/journey-html.ts), with the
 * load balancer's name and port from the attendee's own outputs; the
 * Markdown handout is left as it was.
 */
import { validConfig } from '../../../lib/config/load';
import { buildHandout } from '../../../lib/commands/handout/handout-model';
import { handoutHtml, handoutMarkdown } from '../../../lib/commands/handout/render-handout';
import { explainLab } from '../../../lib/lab/anatomy/explain-lab';
import { readOutputsFile } from '../../../lib/lab/files/outputs';
import { JOURNEY_SCRIPT } from '../../../lib/lab/pictures/journey-html';
import { fixture } from '../../support/fixtures';

const config = validConfig({ name: 'lab', gcp: { project: 'acme-lab' } }, 'test');
const h = buildHandout({
  outputs: readOutputsFile(fixture('outputs.json')).environments[0],
  explanation: explainLab(config).environments[0],
  replicas: 2,
});
const html = handoutHtml(h);

test("GIVEN a handout THEN each exposure's section has its journey, after its picture, and the page its script once", () => {
  for (const e of h.exposures) {
    const section = html.slice(html.indexOf(`<section class="exposure" id="${e.cloud}-${e.mode}">`));
    const own = section.slice(0, section.indexOf('<section class="exposure"', 1) === -1 ? undefined : section.indexOf('<section class="exposure"', 1));
    expect(own.indexOf(`id="journey-${e.cloud}-${e.mode}" data-journey`)).toBeGreaterThan(own.indexOf('</figure>'));
  }
  expect(html.split(JOURNEY_SCRIPT)).toHaveLength(2);
});

test("GIVEN the attendee's outputs THEN the journey's load balancer is the one of their URL, marked as from the outputs", () => {
  const native = html.slice(html.indexOf('id="journey-aws-native"'));
  expect(native.slice(0, native.indexOf('</section>'))).toContain(
    'data-role="load balancer" data-address="k8s-hoplab-echonati-3f1c2a9b7d-1234567890.us-east-1.elb.amazonaws.com" data-origin="outputs"',
  );
  const gke = html.slice(html.indexOf('id="journey-gcp-nodeport-local"'));
  expect(gke.slice(0, gke.indexOf('</section>'))).toContain('data-address="35.192.55.66" data-origin="outputs"');
});

test('GIVEN the Markdown handout THEN it has no journey (the page has)', () => {
  expect(handoutMarkdown(h)).not.toContain('journey');
});
