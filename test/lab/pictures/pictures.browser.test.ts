/**
 * The diagrams in a real browser (Debian's chromium, see test/support/browser.ts):
 * the page loads with no console error and no request, every diagram has a
 * visible size, and every text of a diagram lies inside its picture.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { htmlPage } from '../../../lib/kit/svg/html-page';
import { exposurePathSvg, overviewSvg } from '../../../lib/lab/pictures/path-diagram';
import { drawnSizes, openFile, OpenedPage } from '../../support/browser';
import { demoEnvironment, unknownExposure } from '../../support/pictures';

const dir = mkdtempSync(join(tmpdir(), 'hoplab-pictures-'));
let opened: OpenedPage;

beforeAll(async () => {
  const env = demoEnvironment();
  const figures = env.clouds.flatMap((c) => [overviewSvg(env, c.cloud), ...c.exposures.map((e) => exposurePathSvg(e, { title: `${c.cloud} ${e.mode}` }))]);
  figures.push(exposurePathSvg(unknownExposure()), overviewSvg({ env: 'solo', clouds: [] }, 'gcp'));
  const file = join(dir, 'pictures.html');
  writeFileSync(file, htmlPage({ title: 'every picture', body: figures.map((svg) => `<figure>${svg}</figure>`).join('\n') }));
  opened = await openFile(file);
});

afterAll(async () => {
  await opened?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('GIVEN every diagram of the default lab on one page WHEN opened THEN no console error and no request leaves the file', () => {
  expect(opened.consoleErrors).toEqual([]);
  expect(opened.requests).toEqual([]);
});

test('GIVEN the page THEN every diagram is drawn at a visible, non-zero size', async () => {
  const sizes = await drawnSizes(opened, 'svg');
  // Overview and exposures of both clouds, the unknown path and the empty overview.
  expect(sizes).toHaveLength(2 + 6 + 5 + 2);
  for (const size of sizes) {
    expect(size.width).toBeGreaterThan(100);
    expect(size.height).toBeGreaterThan(50);
  }
});

test('GIVEN the page THEN every text of every diagram lies inside its picture (nothing cut off)', async () => {
  const outside = await opened.page.$$eval('svg', (svgs) =>
    svgs.flatMap((svg) => {
      const [x, y, width, height] = (svg.getAttribute('viewBox') ?? '').split(' ').map(Number);
      const view = { x, y, width, height };
      return [...svg.querySelectorAll('text')]
        .map((t) => ({ box: t.getBBox(), text: t.textContent ?? '' }))
        .filter(({ box }) => box.x < view.x - 0.5 || box.y < view.y - 0.5 || box.x + box.width > view.x + view.width + 0.5 || box.y + box.height > view.y + view.height + 0.5)
        .map(({ box, text }) => `${svg.querySelector('title')?.textContent}: "${text}" at ${Math.round(box.x)},${Math.round(box.y)} ${Math.round(box.width)}x${Math.round(box.height)}`);
    }),
  );
  expect(outside).toEqual([]);
});
