/**
 * `watch --serve --progress` in a real browser (Debian's chromium, test/support/browser.ts):
 * a real watch against loopback echo servers serves the room on a loopback
 * port, and the page, opened by its URL, draws the room, follows a server
 * that starts failing without a reload, shows an attendee's detail on a
 * click, logs no console error and asks nothing of any other address. With
 * --progress it reads each attendee's cluster, a loopback Kubernetes API over
 * TLS with recorded objects (test/support/lab-cluster.ts): ann has done every
 * exercise, bob has not scaled back yet (and then does: the page follows
 * without a reload), cy's cluster refuses connections (could not check).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validConfig } from '../../../lib/config/load';
import { EXPOSURE_FACTS } from '../../../lib/model/exposure-facts';
import { runWatch } from '../../../lib/commands/watch/watch-cli';
import { ControlledServer, startControlledEchoServer } from '../../support/echo-servers';
import { openUrl, OpenedPage } from '../../support/browser';
import { HOST_TOKEN, KubernetesApi, refusingApi, serveKubernetesApi } from '../../support/kubernetes-api';
import { labClusterAnswers, labClusterObjects, LabClusterState } from '../../support/lab-cluster';
import { watchLabCluster } from '../../support/watch-lab';

const dir = mkdtempSync(join(tmpdir(), 'hoplab-watch-serve-'));
let servers: ControlledServer[] = [];
let clusters: KubernetesApi[] = [];
/** bob's cluster as it answers now: the Deployment still at 1 replica, until a test scales it back. */
let bob: LabClusterState = { cloud: 'aws', replicas: 1, scaledWithKubectl: true };
let opened: OpenedPage;
const stop = new AbortController();
let watching: Promise<number>;

/** The selector of one attendee's cell. */
const cell = (env: string, mode: string) => `tr[data-env="${env}"] td[title^="${env} aws ${mode}:"]`;

/** The state of one attendee's cell on the page now. */
const cellState = (page: OpenedPage['page'], env: string, mode: string) => page.locator(cell(env, mode)).getAttribute('data-state');

/** The selector of one attendee's progress cell, by the exercise's code in the header. */
const progressCell = (env: string, exercise: string) => `tr[data-env="${env}"] td.pcell[title^="${env} ${exercise} "]`;

/** Waits until the page has an element `selector` matches (no deadline of its own: jest's is the safety net). */
const until = (page: OpenedPage['page'], selector: string) => page.locator(selector).first().waitFor({ state: 'attached', timeout: 0 });

beforeAll(async () => {
  servers = await Promise.all([
    startControlledEchoServer({ behaviour: 'client-address' }),
    startControlledEchoServer({ behaviour: 'snat-l4' }),
    startControlledEchoServer({ behaviour: 'client-address' }),
  ]);
  const [annLocal, annL4, bobLocal] = servers;
  const lb = (local: ControlledServer | null, l4: ControlledServer | null) => ({
    exposure_nodeport_local: { mode: 'nodeport-local', cloud: 'aws', ...EXPOSURE_FACTS.aws['nodeport-local'], url: local?.url ?? null },
    exposure_nodeport_l4: { mode: 'nodeport-l4', cloud: 'aws', ...EXPOSURE_FACTS.aws['nodeport-l4'], url: l4?.url ?? null },
  });
  // The clusters: ann's done, bob's as `bob` says at each request, cy's refuses connections.
  const annCluster = await serveKubernetesApi({ objects: labClusterObjects({ cloud: 'aws', scaledWithKubectl: true }) as never });
  const bobCluster = await serveKubernetesApi({ objects: labClusterAnswers(() => bob) });
  clusters = [annCluster, bobCluster];
  const refused = await refusingApi();
  const outputsFile = join(dir, 'outputs.json');
  writeFileSync(
    outputsFile,
    JSON.stringify({
      'ann-aws-lb': lb(annLocal, annL4),
      'ann-aws-cluster': watchLabCluster('ann', annCluster.base),
      'bob-aws-lb': lb(bobLocal, null),
      'bob-aws-cluster': watchLabCluster('bob', bobCluster.base),
      'cy-aws-lb': lb(null, null),
      'cy-aws-cluster': watchLabCluster('cy', refused),
    }),
  );
  let err = '';
  const served = new Promise<string>((resolve) => {
    const argv = ['--outputs', outputsFile, '--timeout', '60000', '--rate', '5', '--room', '--serve-address', '127.0.0.1:0', '--progress', '--progress-interval', '5'];
    watching = runWatch(argv, {
      stdout: { write: () => true },
      err: (text) => {
        err += text;
        const url = /serving the room on (http:\/\/\S+) /.exec(err)?.[1];
        if (url) resolve(url);
      },
      env: {},
      signal: stop.signal,
      config: () => validConfig({ attendees: ['ann', 'bob', 'cy'] }, 'test'),
      tokens: { token: async () => HOST_TOKEN },
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
  await Promise.all(clusters.map((c) => c.close()));
  rmSync(dir, { recursive: true, force: true });
});

test('GIVEN the served page WHEN the watch runs THEN it draws the room: a row per attendee, a cell per exposure, the legend', async () => {
  await until(opened.page, `${cell('ann', 'nodeport-local')}[data-state="ok"]`);
  await until(opened.page, `${cell('bob', 'nodeport-local')}[data-state="ok"]`);
  expect(await opened.page.$$eval('#room tbody tr', (rows) => rows.map((r) => r.getAttribute('data-env')))).toEqual(['ann', 'bob', 'cy']);
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

test("GIVEN --progress THEN beside each row the attendee's exercises: ann's done, bob's not yet, cy's could not check, with the legend and the note", async () => {
  await until(opened.page, `${progressCell('ann', 'local-health-check')}[data-progress="done"]`);
  await until(opened.page, `${progressCell('cy', 'local-health-check')}[data-progress="could not check"]`);
  await until(opened.page, `${progressCell('bob', 'local-health-check')}[data-progress="not yet"]`);
  expect(await opened.page.$$eval('#room thead tr:nth-child(2) th.pfirst, #room thead tr:nth-child(2) th.pfirst ~ th', (ths) => ths.map((th) => th.textContent))).toEqual(['hc']);
  expect(await opened.page.textContent(progressCell('ann', 'local-health-check'))).toBe('✓');
  expect(await opened.page.getAttribute(progressCell('bob', 'local-health-check'), 'title')).toBe('bob local-health-check (EKS nodeport-local): not yet: echo is at 1 replica: scale it back to 2');
  expect(await opened.page.getAttribute(progressCell('cy', 'local-health-check'), 'title')).toMatch(
    /^cy local-health-check \(EKS nodeport-local\): could not check: GET https:\/\/127\.0\.0\.1:\d+\/apis\/apps\/v1\/namespaces\/hoplab\/deployments\/echo failed: .*ECONNREFUSED/,
  );
  const legend = await opened.page.innerText('#progress-legend');
  for (const expected of ['progress:', '✓done', '·not yet', '?could not check (why: point at it, or open the attendee)', 'hc = local-health-check']) expect(legend).toContain(expected);
  expect(await opened.page.innerText('#progress-note')).toMatch(/^Progress: each attendee's clusters read every 5 s \(as npx hoplab progress\); last read \d\d:\d\d$/);
});

test('GIVEN bob scales the Deployment back WHEN his cluster is read again THEN his cell turns done, without a reload', async () => {
  await opened.page.evaluate(() => void ((globalThis as { notReloaded?: boolean }).notReloaded = true));
  bob = { cloud: 'aws', scaledWithKubectl: true };
  await until(opened.page, `${progressCell('bob', 'local-health-check')}[data-progress="done"]`);
  expect(await opened.page.evaluate(() => (globalThis as { notReloaded?: boolean }).notReloaded)).toBe(true);
  expect(await opened.page.getAttribute(progressCell('bob', 'local-health-check'), 'title')).toBe(
    'bob local-health-check (EKS nodeport-local): done: echo scaled and back at 2 replicas, all ready (kubectl-scale)',
  );
});

test('GIVEN a click on cy THEN their detail lists each exercise, the ones read from the cluster as could not check, saying why', async () => {
  await opened.page.click('button[data-env="cy"]');
  await opened.page.waitForSelector('#detail .panel li', { timeout: 0 });
  expect(await opened.page.innerText('#detail .panel h3')).toBe("Progress through the handout's exercises (read every 5 s)");
  const rows = await opened.page.$$eval('#detail .panel li', (lis) => lis.map((li) => `${li.className} ${li.textContent}`));
  expect(rows[0]).toBe('neutral snat (EKS nodeport-l4): not checkable: a curl leaves nothing in the cluster (compare --probe measures it)');
  expect(rows[1]).toMatch(/^unknown local-health-check \(EKS nodeport-local\): could not check: GET https:\/\/127\.0\.0\.1:\d+\/\S+ failed: .*ECONNREFUSED/);
  await opened.page.keyboard.press('Escape');
  await opened.page.waitForSelector('#room:not([hidden])', { timeout: 0 });
});

test('GIVEN the page THEN no console error and no request left loopback', () => {
  expect(opened.consoleErrors).toEqual([]);
  expect(opened.requests).toEqual([]);
});
