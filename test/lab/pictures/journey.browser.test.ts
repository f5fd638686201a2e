/**
 * The packet's journey step by step, in a real browser (Debian's chromium,
 * see test/support/browser.ts), on the two pages that carry it: the explain
 * page of the default lab and an attendee's handout. Every step is reachable
 * by Next and by the keyboard, one at a time; the SNAT step of nodeport-l4
 * shows the source changing to a node address; native's steps show no
 * rewrite by a node; printed, or without script, every step shows.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validConfig } from '../../../lib/config/load';
import { renderExplainHtml } from '../../../lib/commands/explain/render-html';
import { handout } from '../../../lib/commands/handout/handout';
import { explainLab } from '../../../lib/lab/anatomy/explain-lab';
import { inRanges } from '../../../lib/model/cidr';
import { openFile, OpenedPage } from '../../support/browser';
import { fixture } from '../../support/fixtures';
import { defaultLab, exposureOf } from '../../support/pictures';

const dir = mkdtempSync(join(tmpdir(), 'hoplab-journey-'));
const explainFile = join(dir, 'explain.html');
let explainPage: OpenedPage;
let handoutPage: OpenedPage;

beforeAll(async () => {
  writeFileSync(explainFile, renderExplainHtml(defaultLab()));
  const config = validConfig({ name: 'lab', gcp: { project: 'acme-lab' } }, 'test');
  const code = await handout(['--outputs', fixture('outputs.json'), '--out', join(dir, 'handouts')], {
    out: () => undefined,
    err: () => undefined,
    config: () => config,
    explain: () => explainLab(config),
  });
  expect(code).toBe(0);
  [explainPage, handoutPage] = await Promise.all([openFile(explainFile), openFile(join(dir, 'handouts', 'lab.html'))]);
});

afterAll(async () => {
  await Promise.all([explainPage?.close(), handoutPage?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

/** The journeys of a page, by id, with the number of their steps. */
async function journeys(opened: OpenedPage): Promise<{ id: string; steps: number }[]> {
  return opened.page.$$eval('[data-journey]', (all) => all.map((j) => ({ id: j.id, steps: j.querySelectorAll('.journey-step').length })));
}

/** The 1-based numbers of the steps of journey `id` that are drawn now. */
async function shownSteps(opened: OpenedPage, id: string): Promise<number[]> {
  return opened.page.$$eval(`#${id} .journey-step`, (steps) => steps.flatMap((s, i) => (s.getBoundingClientRect().height > 0 ? [i + 1] : [])));
}

const position = (opened: OpenedPage, id: string) => opened.page.textContent(`#${id} .journey-position`);

test.each(['explain', 'handout'])('GIVEN the %s page WHEN opened THEN no console error, no request leaves the file, and a journey per exposure', async (which) => {
  const opened = which === 'explain' ? explainPage : handoutPage;
  expect([opened.consoleErrors, opened.requests]).toEqual([[], []]);
  // The default lab: six exposures on EKS, five on GKE; the handout has the outputs fixture's three on each.
  expect((await journeys(opened)).length).toBe(which === 'explain' ? 11 : 6);
});

test.each(['explain', 'handout'])('GIVEN every journey of the %s page THEN each step is reachable by Next, one at a time, and Previous goes back', async (which) => {
  const opened = which === 'explain' ? explainPage : handoutPage;
  for (const { id, steps } of await journeys(opened)) {
    expect(steps).toBeGreaterThanOrEqual(4);
    expect(await shownSteps(opened, id)).toEqual([1]);
    expect(await opened.page.isDisabled(`#${id} [data-journey-previous]`)).toBe(true);
    for (let n = 2; n <= steps; n += 1) {
      await opened.page.click(`#${id} [data-journey-next]`);
      expect(await shownSteps(opened, id)).toEqual([n]);
      expect(await position(opened, id)).toBe(`step ${n} of ${steps}`);
    }
    expect(await opened.page.isDisabled(`#${id} [data-journey-next]`)).toBe(true);
    await opened.page.click(`#${id} [data-journey-previous]`);
    expect(await shownSteps(opened, id)).toEqual([steps - 1]);
  }
});

test('GIVEN every journey of the explain page THEN each step is reachable by the keyboard: → and PageDown on, ← and PageUp back, Home and End', async () => {
  const { page } = explainPage;
  for (const { id, steps } of await journeys(explainPage)) {
    await page.focus(`#${id}`);
    await page.keyboard.press('Home');
    expect(await shownSteps(explainPage, id)).toEqual([1]);
    for (let n = 2; n <= steps; n += 1) {
      await page.keyboard.press(n % 2 === 0 ? 'ArrowRight' : 'PageDown');
      expect(await shownSteps(explainPage, id)).toEqual([n]);
    }
    await page.keyboard.press('ArrowRight');
    expect(await shownSteps(explainPage, id)).toEqual([steps]);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('PageUp');
    expect(await shownSteps(explainPage, id)).toEqual([steps - 2]);
    await page.keyboard.press('End');
    expect(await shownSteps(explainPage, id)).toEqual([steps]);
    await page.keyboard.press('Home');
  }
});

test("GIVEN nodeport-l4's journey THEN its SNAT step, reached by Next, shows the source changing from the client to a node address", async () => {
  const { page } = explainPage;
  const id = 'journey-demo-aws-nodeport-l4';
  const snatAt = await page.$$eval(`#${id} .journey-step`, (steps) => steps.findIndex((s) => s.getAttribute('data-rewrite') === 'dnat+snat') + 1);
  expect(snatAt).toBe(3);
  await page.focus(`#${id}`);
  await page.keyboard.press('Home');
  const sourceShown = async () =>
    page.$eval(`#${id} .journey-current tr:first-child td`, (td) => ({
      role: td.getAttribute('data-role'),
      address: td.getAttribute('data-address'),
      rewritten: td.classList.contains('journey-changed'),
      text: td.textContent ?? '',
    }));
  await page.click(`#${id} [data-journey-next]`);
  const before = await sourceShown();
  await page.click(`#${id} [data-journey-next]`);
  const after = await sourceShown();
  expect(before).toMatchObject({ role: 'client', rewritten: false });
  expect(after).toMatchObject({ role: 'node 1', rewritten: true });
  expect(after.text).toContain('← rewritten here');
  expect(after.address).not.toBe(before.address);
  expect(inRanges(after.address!, exposureOf('aws', 'nodeport-l4').plan!.node_ranges)).toBe(true);
  expect(await page.isVisible(`#${id} .journey-current >> text=SNAT (externalTrafficPolicy: Cluster)`)).toBe(true);
});

test.each(['aws', 'gcp'])("GIVEN native's journey on %s THEN none of its steps, each reached by Next, shows a node's rewrite or a node address", async (cloud) => {
  const { page } = explainPage;
  const id = `journey-demo-${cloud}-native`;
  await page.focus(`#${id}`);
  await page.keyboard.press('Home');
  const steps = await page.$$eval(`#${id} .journey-step`, (s) => s.length);
  for (let n = 1; n <= steps; n += 1) {
    const shown = await page.$eval(`#${id} .journey-current`, (step) => ({
      rewrite: step.getAttribute('data-rewrite'),
      roles: [...step.querySelectorAll('td[data-role]')].map((td) => td.getAttribute('data-role')),
      text: step.textContent ?? '',
    }));
    expect(['none', 'new-connection', 'undo']).toContain(shown.rewrite);
    expect(shown.roles.filter((r) => r!.startsWith('node'))).toEqual([]);
    expect(shown.text).not.toMatch(/DNAT|SNAT/);
    if (n < steps) await page.click(`#${id} [data-journey-next]`);
  }
});

test('GIVEN the explain page printed THEN every step of every journey shows and the controls do not', async () => {
  const { page } = explainPage;
  await page.emulateMedia({ media: 'print' });
  try {
    for (const { id, steps } of await journeys(explainPage)) {
      expect(await shownSteps(explainPage, id)).toEqual(Array.from({ length: steps }, (_, i) => i + 1));
      expect(await page.isVisible(`#${id} .journey-controls`)).toBe(false);
    }
  } finally {
    await page.emulateMedia({ media: 'screen' });
  }
});

test('GIVEN the explain page without its script THEN every step of every journey shows, and no control', async () => {
  const file = join(dir, 'no-script.html');
  writeFileSync(file, readFileSync(explainFile, 'utf8').replace(/<script>[\s\S]*?<\/script>/g, ''));
  const opened = await openFile(file);
  try {
    expect(opened.consoleErrors).toEqual([]);
    for (const { id, steps } of await journeys(opened)) {
      expect(await shownSteps(opened, id)).toEqual(Array.from({ length: steps }, (_, i) => i + 1));
      expect(await opened.page.isVisible(`#${id} .journey-controls`)).toBe(false);
    }
  } finally {
    await opened.close();
  }
});
