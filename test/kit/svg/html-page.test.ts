import { escapeHtml, htmlPage, PAGE_CSP } from '../../../lib/kit/svg/html-page';
import { externalReferences, unbalancedTags } from '../../support/pictures';

describe('htmlPage', () => {
  const page = htmlPage({ title: 'ann & bob <lab>', body: '<h1>hello</h1>', css: 'h1 { color: #123456; }' });

  test('GIVEN a title, a body and CSS THEN a whole UTF-8 page with the title escaped, the CSS inline and the body as given', () => {
    expect(page.startsWith('<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n')).toBe(true);
    expect(page).toContain('<title>ann &amp; bob &lt;lab&gt;</title>');
    expect(page).toMatch(/<style>[\s\S]*h1 \{ color: #123456; \}<\/style>/);
    expect(page).toContain('<body>\n<h1>hello</h1>\n</body>');
    expect(unbalancedTags(page.replace(/<(meta|link)\b[^>]*>/g, '').replace(/<!doctype html>/, ''))).toEqual([]);
  });

  test('GIVEN any page THEN nothing outside it is referenced, and its policy forbids loading anything but inline code and data: images', () => {
    expect(externalReferences(page.replace('href="data:,"', ''))).toEqual([]);
    expect(page).toContain(`<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}">`);
    expect(PAGE_CSP).toBe("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; font-src data:");
    expect(page).toContain('<link rel="icon" href="data:,">');
  });

  test('GIVEN the base style THEN large type for a projector and a print style', () => {
    expect(page).toContain('html { font-size: 20px; }');
    expect(page).toContain('@media print');
  });

  test.each([
    ['<a href="x">&</a>', '&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;'],
    ["it's", 'it&#39;s'],
    ['plain', 'plain'],
  ])('escapeHtml(%j) = %j', (input, output) => {
    expect(escapeHtml(input)).toBe(output);
  });
});
