/**
 * `watch --serve` in a real browser (Debian's chromium, test/support/browser.ts):
 * a real watch against loopback echo servers serves the room on a loopback
 * port, and the page, opened by its URL, draws the room, follows a server
 * that starts failing without a reload, shows an attendee's detail on a
 * click, logs no console error and asks nothing of any other address.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXPOSURE_FACTS } from '../../../lib/model/exposure-facts';
import { runWatch } from '../../../lib/commands/watch/watch-cli';
import { ControlledServer, startControlledEchoServer } from '../../support/echo-servers';
import { openUrl, OpenedPage } from '../../support/browser';

const dir = mkdtempSync(join(tmpdir(), 'hoplab-watch-serve-'));
let servers: ControlledServer[] = [];
let opened: OpenedPage;
const stop = new AbortController();
let watching: Promise<number>;

/** The selector of one attendee's cell. */
const cell = (env: string, mode: string) => `tr[data-env="${env}"] td[title^="${env} aws ${mode}:"]`;

/** The state of one attendee's cell on the page now. */
const cellState = (page: OpenedPage['page'], env: string, mode: string) => page.locator(cell(env, mode)).getAttribute('data-state');

/** Waits until the page has an element `selector` matches (no deadline of its own: jest's is the safety net). */
const until = (page: OpenedPage['page'], selector: string) => page.locator(selector).first().waitFor({ state: 'attached', timeout: 0 });

beforeAll(async () => {
  servers = await Promise.all([
    startControlledEchoServer({ behaviour: 'client-address' }),
    startControlledEchoServer({ behaviour: 'snat-l4' }),
    startControlledEchoServer({ behaviour: 'client-address' }),
  ]);
  const [annLocal, annL4, bobLocal] = servers;
  const lb = (local: ControlledServer, l4: ControlledServer | null) => ({
    exposure_nodeport_local: { mode: 'nodeport-local', cloud: 'aws', ...EXPOSURE_FACTS.aws['nodeport-local'], url: local.url },
    exposure_nodeport_l4: { mode: 'nodeport-l4', cloud: 'aws', ...EXPOSURE_FACTS.aws['nodeport-l4'], url: l4?.url ?? null },
  });
  const outputsFile = join(dir, 'outputs.json');
  writeFileSync(outputsFile, JSON.stringify({ 'ann-aws-lb': lb(annLocal, annL4), 'bob-aws-lb': lb(bobLocal, null) }));
  let err = '';
  const served = new Promise<string>((resolve) => {
    watching = runWatch(['--outputs', outputsFile, '--timeout', '60000', '--rate', '5', '--room', '--serve-address', '127.0.0.1:0'], {
      stdout: { write: () => true },
      err: (text) => {
        err += text;
        const url = /serving the room on (http:\/\/\S+) /.exec(err)?.[1];
        if (url) resolve(url);
      },
      env: {},
      signal: stop.signal,
    });
    void watching.then(() => resolve(`watch ended before serving: ${err}`));
  });
  const url = await served;
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  opened = await openUrl(url);
});

afterAll(async () => {
  stop.abort();
  await watching;
  await opened?.close();
  await Promise.all(servers.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

test('GIVEN the served page WHEN the watch runs THEN it draws the room: a row per attendee, a cell per exposure, the legend', async () => {
  await until(opened.page, `${cell('ann', 'nodeport-local')}[data-state="ok"]`);
  await until(opened.page, `${cell('bob', 'nodeport-local')}[data-state="ok"]`);
  expect(await opened.page.$$eval('#room tbody tr', (rows) => rows.map((r) => r.getAttribute('data-env')))).toEqual(['ann', 'bob']);
  expect(await cellState(opened.page, 'ann', 'nodeport-local')).toBe('ok');
  expect(await cellState(opened.page, 'bob', 'nodeport-l4')).toBe('not-probed');
  const text = await opened.page.innerText('body');
  for (const expected of ['attendee', 'aws', 'loc', 'l4', 'as claimed', 'errors', 'client-IP MISMATCH', 'no URL', 'loc = nodeport-local', 'Live: updated every interval.']) {
    expect(text).toContain(expected);
  }
});

test('GIVEN a server that starts failing WHEN the page is open THEN its cell turns to errors and the change is listed, without a reload', async () => {
  await opened.page.evaluate(() => void ((globalThis as { notReloaded?: boolean }).notReloaded = true));
  servers[2].control.fail = 'http-503';
  await until(opened.page, `${cell('bob', 'nodeport-local')}[data-state="errors"]`);
  expect(await opened.page.evaluate(() => (globalThis as { notReloaded?: boolean }).notReloaded)).toBe(true);
  await until(opened.page, '#changes li:has-text("bob aws nodeport-local: errors started: HTTP 503")');
  expect(await cellState(opened.page, 'ann', 'nodeport-local')).toBe('ok');
});

test("GIVEN a click on an attendee THEN their detail shows each exposure's figures and only their changes; Escape goes back to the room", async () => {
  await opened.page.click('button[data-env="bob"]');
  await opened.page.waitForSelector('#detail table#exposures', { timeout: 0 });
  const detail = await opened.page.innerText('#detail');
  expect(detail).toContain('bob');
  expect(detail).toMatch(/aws nodeport-local\s+errors\s+[\d.]+\s+\d+ HTTP 503/);
  expect(detail).toContain('not probed: no URL in the output');
  expect(await opened.page.innerText('#changes')).not.toContain('ann aws');
  // It stays on bob while new states arrive.
  const before = await opened.page.textContent('#header');
  while ((await opened.page.textContent('#header')) === before) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(await opened.page.innerText('#detail h2')).toBe('bob');
  await opened.page.keyboard.press('Escape');
  await opened.page.waitForSelector('#room', { timeout: 0 });
});

test('GIVEN the page THEN no console error and no request left loopback', () => {
  expect(opened.consoleErrors).toEqual([]);
  expect(opened.requests).toEqual([]);
});
