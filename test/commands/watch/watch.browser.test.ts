/**
 * The `watch --html` page in a real browser (Debian's chromium, see
 * test/support/browser.ts), written by a real watch against loopback echo
 * servers (one of which fails mid-run): no console error, no request leaving
 * the file, every chart at a visible size, the exposure names, the verdicts
 * and the change on the page as text.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXPOSURE_FACTS } from '../../../lib/model/exposure-facts';
import { runWatch } from '../../../lib/commands/watch/watch-cli';
import { ControlledServer, startControlledEchoServer } from '../../support/echo-servers';
import { drawnSizes, openFile, OpenedPage } from '../../support/browser';

const dir = mkdtempSync(join(tmpdir(), 'hoplab-watch-browser-'));
let local: ControlledServer;
let l4: ControlledServer;
let opened: OpenedPage;

beforeAll(async () => {
  local = await startControlledEchoServer({ behaviour: 'client-address' });
  l4 = await startControlledEchoServer({ behaviour: 'snat-l4' });
  const outputsFile = join(dir, 'outputs.json');
  writeFileSync(
    outputsFile,
    JSON.stringify({
      'ann-aws-lb': {
        exposure_nodeport_local: { mode: 'nodeport-local', cloud: 'aws', ...EXPOSURE_FACTS.aws['nodeport-local'], url: local.url },
        exposure_nodeport_l4: { mode: 'nodeport-l4', cloud: 'aws', ...EXPOSURE_FACTS.aws['nodeport-l4'], url: l4.url },
        exposure_native: { mode: 'native', cloud: 'aws', ...EXPOSURE_FACTS.aws.native, url: null },
      },
    }),
  );
  let writes = 0;
  const code = await runWatch(['--outputs', outputsFile, '--timeout', '60000', '--rate', '5', '--duration', '3', '--window', '1', '--html', join(dir, 'watch.html')], {
    // After the first interval the nodeport-local server starts failing.
    stdout: {
      write: () => {
        writes += 1;
        if (writes === 1) local.control.fail = 'http-503';
        return true;
      },
    },
    err: () => undefined,
    env: {},
  });
  expect(code).toBe(0);
  opened = await openFile(join(dir, 'watch.html'));
});

afterAll(async () => {
  await opened?.close();
  await Promise.all([local?.close(), l4?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

test('GIVEN the watch page WHEN opened THEN no console error and no request leaves the file', () => {
  expect(opened.consoleErrors).toEqual([]);
  expect(opened.requests).toEqual([]);
});

test('GIVEN the watch page THEN each probed exposure’s chart is drawn at a visible, non-zero size', async () => {
  const sizes = await drawnSizes(opened, 'section.exposure svg');
  expect(sizes).toHaveLength(2);
  for (const size of sizes) {
    expect(size.width).toBeGreaterThan(300);
    expect(size.height).toBeGreaterThan(150);
  }
});

test('GIVEN the watch page THEN every text of every chart lies inside its picture', async () => {
  const outside = await opened.page.$$eval('svg', (svgs) =>
    svgs.flatMap((svg) => {
      const [x, y, width, height] = (svg.getAttribute('viewBox') ?? '').split(' ').map(Number);
      return [...svg.querySelectorAll('text')]
        .map((t) => ({ box: t.getBBox(), text: t.textContent ?? '' }))
        .filter(({ box }) => box.x < x - 0.5 || box.y < y - 0.5 || box.x + box.width > x + width + 0.5 || box.y + box.height > y + height + 0.5)
        .map(({ text }) => text);
    }),
  );
  expect(outside).toEqual([]);
});

test('GIVEN the watch page THEN the exposure names, the verdicts and the change are visible text', async () => {
  const text = await opened.page.innerText('body');
  for (const expected of ['ann aws nodeport-l4', 'ann aws nodeport-local', 'ann aws native', 'none, SNAT', 'client-IP verdict', 'errors started: HTTP 503', 'not probed: no URL in the output']) {
    expect(text).toContain(expected);
  }
});
