/**
 * A handout page in a real browser (Debian's chromium, see test/support/browser.ts):
 * no console error, no request leaving the file, every path picture visible,
 * the URLs and the client-IP verdicts on the page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validConfig } from '../../../lib/config/load';
import { handout } from '../../../lib/commands/handout/handout';
import { explainLab } from '../../../lib/lab/anatomy/explain-lab';
import { fixture } from '../../support/fixtures';
import { drawnSizes, openFile, OpenedPage } from '../../support/browser';

const dir = mkdtempSync(join(tmpdir(), 'hoplab-handout-browser-'));
let opened: OpenedPage;
let index: OpenedPage;

beforeAll(async () => {
  const config = validConfig({ attendees: [{ name: 'lab', aws: 'arn:aws:iam::123456789012:role/lab', gcp: 'user:lab@example.com' }], gcp: { project: 'acme-lab' } }, 'test');
  const code = await handout(['--outputs', fixture('outputs.json'), '--out', dir], {
    out: () => undefined,
    err: () => undefined,
    config: () => config,
    explain: () => explainLab(validConfig({ name: 'lab', gcp: { project: 'acme-lab' } }, 'test')),
  });
  expect(code).toBe(0);
  opened = await openFile(join(dir, 'lab.html'));
  index = await openFile(join(dir, 'index.html'));
});

afterAll(async () => {
  await opened?.close();
  await index?.close();
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
