/** `explain --format html`: one self-contained page, a picture per exposure and an overview per cloud. */
import { renderExplainHtml } from '../../../lib/commands/explain/render-html';
import { urlsFromOutputs } from '../../../lib/commands/explain/words';
import { validConfig } from '../../../lib/config/load';
import { explainDir } from '../../../lib/lab/anatomy/explain-dir';
import { explainLab } from '../../../lib/lab/anatomy/explain-lab';
import { readOutputsFile } from '../../../lib/lab/files/outputs';
import { fixture } from '../../support/fixtures';
import { FIXTURE_APP } from '../../lab/anatomy/support';
import { defaultLab, externalReferences, unbalancedTags } from '../../support/pictures';

describe('renderExplainHtml', () => {
  const page = renderExplainHtml(defaultLab());

  test('GIVEN the default lab THEN an overview per cloud and a picture per exposure (6 on EKS, 5 on GKE)', () => {
    expect(page.match(/<svg /g)).toHaveLength(2 + 6 + 5);
    expect(page.match(/<section class="exposure"/g)).toHaveLength(11);
    expect(page).toContain('<h2>Environment <code>demo</code></h2>');
  });

  test('GIVEN the page THEN it names nothing outside itself and its tags are balanced', () => {
    // Links to its own sections only, and htmlPage's empty icon (so the browser asks for no favicon).
    expect([...page.matchAll(/href="([^"]*)"/g)].map(([, target]) => target).filter((target) => !/^#[\w-]+$/.test(target) && target !== 'data:,')).toEqual([]);
    expect(externalReferences(page.replace(/href="(#[\w-]+|data:,)"/g, ''))).toEqual([]);
    expect(unbalancedTags(page.replace(/<!doctype html>/i, '').replace(/<(meta|link) [^>]*>/g, ''))).toEqual([]);
  });

  test('GIVEN the page THEN the verdicts a host relies on are in the summary tables', () => {
    expect(page).toContain('<th scope="row"><code>nodeport-l4</code></th><td>client → NLB → node → Pod</td><td class="bad">2</td><td class="bad">SNAT</td><td class="bad">LOST</td>');
    expect(page).toContain('Not offered: <code>native-l4</code>: GKE passthrough Network Load Balancers only target nodes, never Pod IPs');
  });

  test('GIVEN outputs THEN each exposure shows its URL as text to copy, not as a link', () => {
    const html = renderExplainHtml(explainDir(FIXTURE_APP), { urls: urlsFromOutputs(readOutputsFile(fixture('outputs.json'))) });
    expect(html).toContain('<p>URL: <code class="url">http://34.120.11.22/</code></p>');
    expect(html).not.toContain('href="http');
  });

  test('GIVEN --exposure THEN only that exposure, no overview', () => {
    const html = renderExplainHtml(defaultLab(), { exposure: 'nodeport-local' });
    expect(html.match(/<svg /g)).toHaveLength(2);
    expect(html).not.toContain('<code>native</code> on');
  });

  test('GIVEN three attendees with the same lab THEN one section names them all, and the pictures are drawn once', () => {
    const html = renderExplainHtml(explainLab(validConfig({ name: 'demo', attendees: ['ann', 'bob', 'chen'] }, 'test')));
    expect(html).toContain('<h2>Environments <code>ann</code>, <code>bob</code>, <code>chen</code></h2>');
    expect(html).toContain('<p>3 identical labs (they differ only in their names), shown once.</p>');
    expect(html.match(/<svg /g)).toHaveLength(2 + 6 + 5);
  });
});
