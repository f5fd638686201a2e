/**
 * explain on a projector, the parts that are text (the drawing is in
 * explain-projector.browser.test.ts): the table says why nodeport-local is 1
 * hop on the same path as nodeport-l4's 2 (terminal and page), the page does
 * not repeat an exposure's path text under its picture, and a long list of
 * identical labs' names collapses behind a count.
 */
import { renderExplainHtml } from '../../../lib/commands/explain/render-html';
import { renderExplainTable } from '../../../lib/commands/explain/render-terminal';
import { validConfig } from '../../../lib/config/load';
import { explainLab } from '../../../lib/lab/anatomy/explain-lab';
import { defaultLab } from '../../support/pictures';

const WHY =
  "why: nodeport-local is 1 hop on the same path as nodeport-l4's 2: with externalTrafficPolicy Local the load balancer sends only to nodes with a ready Pod, " +
  'and each hands the packet to its own Pod; with Cluster any node may send it on to a Pod on another node (the second hop)';

/** Text with its line breaks and continuation indents joined back into single spaces. */
const joined = (text: string) => text.replace(/\n +/g, ' ').replace(/\n/g, ' ');

test.each([80, 120, 200])("GIVEN the summary at %i columns THEN under each cloud's table it says why nodeport-local is 1 hop on the same path as nodeport-l4's 2", (width) => {
  const text = renderExplainTable(defaultLab(), { width });
  expect(joined(text).split(WHY)).toHaveLength(3);
  // Right under the table (or its blocks), before the pairs.
  for (const cloud of text.split(/^-- /m).slice(1)) {
    expect(cloud.indexOf('why: nodeport-local')).toBeLessThan(cloud.indexOf('one variable apart:'));
    expect(cloud.indexOf('why: nodeport-local')).toBeGreaterThan(cloud.indexOf('nodeport-local '));
  }
});

test('GIVEN a lab without both policies on one path THEN no such line', () => {
  const onlyLocal = {
    ...defaultLab(),
    environments: defaultLab().environments.map((env) => ({ ...env, clouds: env.clouds.map((c) => ({ ...c, exposures: c.exposures.filter((e) => e.mode !== 'nodeport-l4') })) })),
  };
  expect(renderExplainTable(onlyLocal, { width: 120 })).not.toContain('why:');
});

test("GIVEN the page THEN each cloud's summary table says why in its footer", () => {
  const page = renderExplainHtml(defaultLab());
  const footers = [...page.matchAll(/<tfoot><tr><td colspan="6">Why: ([^<]*)<\/td><\/tr><\/tfoot>/g)].map((m) => m[1].replace(/&#39;/g, "'"));
  expect(footers).toEqual([WHY.replace(/^why: /, ''), WHY.replace(/^why: /, '')]);
});

test("GIVEN the page THEN an exposure's path text is not repeated under its picture: once, in its facts", () => {
  const model = defaultLab();
  const page = renderExplainHtml(model);
  for (const cloud of model.environments[0].clouds) {
    for (const x of cloud.exposures) {
      const start = page.indexOf(`<section class="exposure" id="demo-${cloud.cloud}-${x.mode}">`);
      const section = page.slice(start, page.indexOf('<section class="journey"', start));
      const shown = section
        .replace(/<svg [\s\S]*?<\/svg>/g, '')
        .replace(/&gt;/g, '>')
        .replace(/&#39;/g, "'");
      expect(shown).not.toContain('<figcaption>');
      expect(shown.split(x.path_summary)).toHaveLength(2);
    }
  }
});

test('GIVEN 30 attendees with the same lab THEN the page names three and a count, the whole list in a closed details', () => {
  const names = Array.from({ length: 30 }, (_, i) => `attendee-${String(i + 1).padStart(2, '0')}`);
  const page = renderExplainHtml(explainLab(validConfig({ name: 'demo', attendees: names }, 'test')));
  expect(page).toContain('<h2>Environments <code>attendee-01</code>, <code>attendee-02</code>, <code>attendee-03</code> and 27 more</h2>');
  expect(page).toContain(`<details class="names"><summary>All 30 names</summary><p>${names.map((n) => `<code>${n}</code>`).join(', ')}</p></details>`);
  expect(page).toContain('<title>hoplab explain: attendee-01, attendee-02, attendee-03 and 27 more</title>');
  expect(page).toContain('>attendee-01, attendee-02, attendee-03 and 27 more: AWS (EKS)</a>');
  // Up to three names, as before: every one in the heading.
  expect(renderExplainHtml(explainLab(validConfig({ name: 'demo', attendees: ['ann', 'bob', 'chen'] }, 'test')))).toContain(
    '<h2>Environments <code>ann</code>, <code>bob</code>, <code>chen</code></h2>',
  );
});
