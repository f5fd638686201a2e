/**
 * explain's page on a 1024×768 projector, drawn by a real browser (Debian's
 * chromium, see test/support/browser.ts): no horizontal scrollbar; 30
 * attendees' names leave the first screen to the lab; no arc of the
 * one-variable overview runs through another arc's label (the "traffic
 * policy" label is not drawn on the "targets" arc).
 *
 * Headless chromium draws no scrollbars, so "no horizontal scrollbar at
 * 1024" is checked at 1007 CSS pixels: what a desktop browser's vertical
 * scrollbar (up to 17 px, Windows') leaves of a 1024-pixel-wide window.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderExplainHtml } from '../../../lib/commands/explain/render-html';
import { urlsFromOutputs } from '../../../lib/commands/explain/words';
import { validConfig } from '../../../lib/config/load';
import { explainLab } from '../../../lib/lab/anatomy/explain-lab';
import { readOutputsFile } from '../../../lib/lab/files/outputs';
import { openFile, OpenedPage } from '../../support/browser';
import { fixture } from '../../support/fixtures';

const PROJECTOR = { width: 1024, height: 768 };
const SCROLLBAR = 17;
const dir = mkdtempSync(join(tmpdir(), 'hoplab-projector-'));
const pages: Record<'lab' | 'room', OpenedPage> = {} as Record<'lab' | 'room', OpenedPage>;
const NAMES = Array.from({ length: 30 }, (_, i) => `attendee-${String(i + 1).padStart(2, '0')}-${['ann', 'bob', 'chen', 'dara', 'eve', 'femi'][i % 6]}`);

beforeAll(async () => {
  const lab = join(dir, 'lab.html');
  writeFileSync(lab, renderExplainHtml(explainLab(validConfig({ name: 'lab' }, 'test')), { urls: urlsFromOutputs(readOutputsFile(fixture('outputs.json'))) }));
  const room = join(dir, 'room.html');
  writeFileSync(room, renderExplainHtml(explainLab(validConfig({ name: 'lab', attendees: NAMES }, 'test'))));
  [pages.lab, pages.room] = await Promise.all([openFile(lab), openFile(room)]);
});

afterAll(async () => {
  await Promise.all(Object.values(pages).map((p) => p?.close()));
  rmSync(dir, { recursive: true, force: true });
});

test.each(['lab', 'room'] as const)('GIVEN the %s page at 1024×768 THEN it has no horizontal scrollbar, with every <details> open too', async (which) => {
  const { page, consoleErrors } = pages[which];
  expect(consoleErrors).toEqual([]);
  await page.setViewportSize({ width: PROJECTOR.width - SCROLLBAR, height: PROJECTOR.height });
  const overflow = () =>
    page.$eval('html', (root) => {
      const wide = [...root.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > root.clientWidth + 0.5).map((e) => `${e.tagName.toLowerCase()}.${e.className}`);
      return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, wide: wide.slice(0, 5) };
    });
  const closed = await overflow();
  expect(closed.wide).toEqual([]);
  expect(closed.scrollWidth).toBeLessThanOrEqual(closed.clientWidth);
  await page.$$eval('details', (all) => all.forEach((d) => d.setAttribute('open', '')));
  const open = await overflow();
  expect(open.wide).toEqual([]);
  expect(open.scrollWidth).toBeLessThanOrEqual(open.clientWidth);
});

test("GIVEN 30 attendees at 1024×768 THEN their names do not fill the first screen: the first cloud's heading is on it, the 30th name is not", async () => {
  const { page } = pages.room;
  await page.setViewportSize(PROJECTOR);
  await page.$$eval('details', (all) => all.forEach((d) => d.removeAttribute('open')));
  const top = await page.$eval('section.cloud h3', (h) => h.getBoundingClientRect().bottom);
  expect(top).toBeLessThan(PROJECTOR.height);
  // The heading names three and a count; the whole list is not drawn until asked for.
  expect(await page.$eval('section.page h2', (h) => ({ text: h.textContent, bottom: h.getBoundingClientRect().bottom }))).toEqual({
    text: `Environments ${NAMES.slice(0, 3).join(', ')} and 27 more`,
    bottom: expect.any(Number),
  });
  expect(await page.isVisible('details.names p')).toBe(false);
  const firstScreen = await page.$$eval(
    'body *',
    (all, height) =>
      all
        .filter((e) => e.children.length === 0 && e.checkVisibility() && e.getBoundingClientRect().top < height)
        .map((e) => e.textContent ?? '')
        .join(' '),
    PROJECTOR.height,
  );
  expect(firstScreen).toContain(NAMES[0]);
  expect(firstScreen).not.toContain(NAMES[29]);
  expect(firstScreen).toContain('All 30 names');
});

test.each(['aws', 'gcp'] as const)("GIVEN the %s overview THEN no arc runs through another arc's label: the traffic policy label is off the targets arc", async (cloud) => {
  const { page } = pages.lab;
  const crossings = await page.$eval(`#lab-${cloud} figure svg`, (svg) => {
    const found: string[] = [];
    const labels = [...svg.querySelectorAll('g[data-arc-label]')];
    const arcs = [...svg.querySelectorAll('path[data-arc]')] as unknown as {
      getTotalLength(): number;
      getPointAtLength(l: number): { x: number; y: number };
      getAttribute(n: string): string | null;
    }[];
    for (const label of labels) {
      const box = (label.querySelector('rect') as unknown as { getBBox(): { x: number; y: number; width: number; height: number } }).getBBox();
      for (const arc of arcs) {
        if (arc.getAttribute('data-pair') === label.getAttribute('data-pair') && arc.getAttribute('data-arc') === label.getAttribute('data-arc-label')) continue;
        for (let at = 0; at <= arc.getTotalLength(); at += 1) {
          const p = arc.getPointAtLength(at);
          if (p.x >= box.x && p.x <= box.x + box.width && p.y >= box.y && p.y <= box.y + box.height) {
            found.push(`${label.getAttribute('data-arc-label')} (${label.getAttribute('data-pair')}) on ${arc.getAttribute('data-arc')} (${arc.getAttribute('data-pair')})`);
            break;
          }
        }
      }
    }
    return { found, labels: labels.map((l) => l.getAttribute('data-arc-label')) };
  });
  expect(crossings.labels).toContain('traffic policy');
  expect(crossings.labels).toContain('targets');
  expect(crossings.found).toEqual([]);
});
