/**
 * A handout page in a real browser (Debian's chromium, see test/support/browser.ts):
 * no console error, no request leaving the file, every path picture visible,
 * the URLs and the client-IP verdicts on the page; printed, no command cut
 * inside a word. The access card: printed on A4 and on Letter, one page each,
 * with every exposure of both clouds and the longest access lines.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validConfig } from '../../../lib/config/load';
import { handout } from '../../../lib/commands/handout/handout';
import { explainLab } from '../../../lib/lab/anatomy/explain-lab';
import { CARD_PRINT_MARGIN_MM } from '../../../lib/commands/handout/render-card';
import { HANDOUT_PRINT_MARGIN_MM } from '../../../lib/commands/handout/render-handout';
import { EXPOSURE_FACTS } from '../../../lib/model/exposure-facts';
import { fixture } from '../../support/fixtures';
import { drawnSizes, openFile, OpenedPage } from '../../support/browser';
import { writeHandoutOutputs } from '../../support/handout-outputs';
import { Paper, printedPages, preWraps } from '../../support/print';

const dir = mkdtempSync(join(tmpdir(), 'hoplab-handout-browser-'));
let opened: OpenedPage;
let index: OpenedPage;
/** The card and the page of a lab with every exposure of both clouds (the longest card), with both identities and an end. */
let card: OpenedPage;
let full: OpenedPage;

/** Writes the handouts of `outputs` for `attendee` into `out`, with the fixture lab's explanation. */
async function write(outputs: string, out: string, attendee: Record<string, string>, more: Record<string, unknown> = {}): Promise<void> {
  const config = validConfig({ attendees: [attendee], gcp: { project: 'acme-lab' }, ...more }, 'test');
  const io = { out: () => undefined, err: () => undefined, config: () => config, explain: () => explainLab(validConfig({ name: 'lab', gcp: { project: 'acme-lab' } }, 'test')) };
  expect(await handout(['--outputs', outputs, '--out', out], io)).toBe(0);
}

beforeAll(async () => {
  await write(fixture('outputs.json'), dir, { name: 'lab', aws: 'arn:aws:iam::123456789012:role/lab', gcp: 'user:lab@example.com' });
  opened = await openFile(join(dir, 'lab.html'));
  index = await openFile(join(dir, 'index.html'));

  const every = join(dir, 'every');
  await write(
    writeHandoutOutputs(join(dir, 'every.json'), { every: true }),
    every,
    { name: 'lab', aws: 'arn:aws:iam::123456789012:role/workshop/lab', gcp: 'user:lab@example.com' },
    { workshop: { expiresAt: '2026-12-10T18:00:00Z' } },
  );
  card = await openFile(join(every, 'lab.card.html'));
  full = await openFile(join(every, 'lab.html'));
});

afterAll(async () => {
  await opened?.close();
  await index?.close();
  await card?.close();
  await full?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('GIVEN the handout page and the index WHEN opened THEN no console error and no request leaves the file', () => {
  expect([opened.consoleErrors, opened.requests, index.consoleErrors, index.requests]).toEqual([[], [], [], []]);
});

test('GIVEN the handout page THEN each exposure’s picture is drawn at a visible, non-zero size', async () => {
  const sizes = await drawnSizes(opened, 'section.exposure svg');
  expect(sizes).toHaveLength(6);
  for (const size of sizes) {
    expect(size.width).toBeGreaterThan(100);
    expect(size.height).toBeGreaterThan(50);
  }
});

test('GIVEN the handout page THEN the URLs, verdicts and kubeconfig commands are visible text', async () => {
  const text = await opened.page.innerText('body');
  for (const expected of [
    'http://k8s-hoplab-echonati-3f1c2a9b7d-1234567890.us-east-1.elb.amazonaws.com/',
    'http://35.192.55.66/',
    'client IP in X-Forwarded-For',
    'client IP kept',
    'AWS_PROFILE=<your profile> kubectl --kubeconfig lab.kubeconfig --context lab-eks get pods',
    'kubectl --kubeconfig lab.kubeconfig --context lab-gke get pods',
  ]) {
    expect(text).toContain(expected);
  }
  expect(await index.page.innerText('body')).toContain('lab');
});

describe('printed', () => {
  test.each(['A4', 'Letter'] as const)('GIVEN the handout printed on %s THEN its commands wrap between words only, never inside one', async (paper: Paper) => {
    for (const page of [opened, full]) {
      const { wraps, insideWords, overflowing, pageWiderThanPaper } = await preWraps(page, paper, HANDOUT_PRINT_MARGIN_MM);
      expect({ insideWords, overflowing, pageWiderThanPaper }).toEqual({ insideWords: [], overflowing: [], pageWiderThanPaper: false });
      // There were long commands to wrap.
      expect(wraps).toBeGreaterThan(10);
    }
  });

  test.each(['A4', 'Letter'] as const)('GIVEN the access card with every exposure of both clouds WHEN printed on %s THEN it is one page', async (paper: Paper) => {
    const { pages, bytes } = await printedPages(card, paper);
    expect(bytes).toBeGreaterThan(1000);
    expect(pages).toBe(1);
    const { insideWords, overflowing, pageWiderThanPaper } = await preWraps(card, paper, CARD_PRINT_MARGIN_MM, 'pre, td');
    expect({ insideWords, overflowing, pageWiderThanPaper }).toEqual({ insideWords: [], overflowing: [], pageWiderThanPaper: false });
  });

  test('GIVEN the access card THEN it shows every URL, kubectl in two lines per cluster from the handout’s access steps, and the workshop’s end', async () => {
    const text = await card.page.innerText('body');
    const urls = [...text.matchAll(/http:\/\/\S+/g)].map((m) => m[0]);
    expect(urls).toHaveLength(Object.keys(EXPOSURE_FACTS.aws).length + Object.keys(EXPOSURE_FACTS.gcp).length);
    const commands = await card.page.$$eval('pre', (pres) => pres.map((p) => p.textContent));
    expect(commands).toEqual([
      'AWS_PROFILE=<your profile> kubectl --kubeconfig lab.kubeconfig --context lab-eks get pods',
      'kubectl --kubeconfig lab.kubeconfig --context lab-eks auth can-i patch deployments -n hoplab   # yes; "get nodes" works, "get secrets -A" does not',
      'gcloud auth login lab@example.com',
      'kubectl --kubeconfig lab.kubeconfig --context lab-gke get pods',
    ]);
    // The same lines as the handout's own access steps, in their order.
    const handoutText = await full.page.innerText('body');
    for (const command of commands) expect(handoutText).toContain(command);
    expect(text).toContain('The workshop ends 2026-12-10 18:00 UTC');
    expect([card.consoleErrors, card.requests]).toEqual([[], []]);
  });

  test('GIVEN the index THEN it links each attendee’s access card', async () => {
    expect(await index.page.$$eval('a', (links) => links.map((a) => a.getAttribute('href')))).toEqual(['lab.md', 'lab.html', 'lab.card.html']);
  });
});
