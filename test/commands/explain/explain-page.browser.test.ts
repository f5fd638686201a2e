/**
 * The page `explain --format html --out FILE` writes, opened in a real
 * browser (Debian's chromium, see test/support/browser.ts): it loads with no
 * console error and no request leaving the file, every diagram has a visible
 * size, and the text a host relies on (URLs, verdicts, hops) is on the page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runExplain } from '../../../lib/commands/explain/explain-cli';
import { drawnSizes, openFile, OpenedPage } from '../../support/browser';
import { fixture } from '../../support/fixtures';
import { FIXTURE_APP } from '../../lab/anatomy/support';

const dir = mkdtempSync(join(tmpdir(), 'hoplab-explain-page-'));
let opened: OpenedPage;

beforeAll(async () => {
  const file = join(dir, 'explain.html');
  let err = '';
  const code = runExplain(['--dir', FIXTURE_APP, '--format', 'html', '--out', file, '--outputs', fixture('outputs.json')], { out: () => undefined, err: (t) => (err += t) });
  expect({ code, err }).toEqual({ code: 0, err: `hoplab explain: wrote ${file}\n` });
  opened = await openFile(file);
});

afterAll(async () => {
  await opened?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('GIVEN the explain page WHEN opened THEN no console error and no request leaves the file', () => {
  expect(opened.consoleErrors).toEqual([]);
  expect(opened.requests).toEqual([]);
});

test('GIVEN the page THEN every diagram (an overview per cloud, a picture per exposure) is drawn at a visible size', async () => {
  const sizes = await drawnSizes(opened, 'svg');
  expect(sizes).toHaveLength(2 + 3 + 3);
  for (const size of sizes) {
    expect(size.width).toBeGreaterThan(100);
    expect(size.height).toBeGreaterThan(50);
  }
});

test('GIVEN the page THEN the URLs, the verdicts and the hops a host relies on are visible text', async () => {
  const text = await opened.page.innerText('body');
  for (const url of ['http://k8s-hoplab-echonati-3f1c2a9b7d-1234567890.us-east-1.elb.amazonaws.com/', 'http://34.120.11.22/', 'http://35.192.55.66/']) {
    expect(text).toContain(url);
  }
  expect(text).toMatch(/nodeport\tclient → ALB → node → Pod\t2\tSNAT\tX-Forwarded-For/);
  expect(text).toMatch(/nodeport-local\tclient → NLB → node → Pod\t1\tno SNAT\tTCP source/);
  // The pictures carry their words as text too: the SNAT mark and the hop count.
  const svgText = await opened.page.$$eval('svg', (svgs) => svgs.map((s) => s.textContent ?? '').join(' '));
  expect(svgText).toContain('SNAT');
  expect(svgText).toContain('2 hops');
});
