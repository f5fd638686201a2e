import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openFile, openUrl } from './browser';

const dir = mkdtempSync(join(tmpdir(), 'hoplab-browser-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function page(name: string, html: string): string {
  const file = join(dir, name);
  writeFileSync(file, html);
  return file;
}

describe('openFile (test/support/browser.ts)', () => {
  test('GIVEN a quiet page WHEN opened THEN it reports no console error and no request, and the page can be read', async () => {
    const opened = await openFile(
      page(
        'quiet.html',
        '<!doctype html><meta charset="utf-8"><title>quiet</title><link rel="icon" href="data:,"><p id="p">hello</p><svg width="100" height="50" viewBox="0 0 100 50"><rect width="100" height="50"/></svg>',
      ),
    );
    try {
      expect(opened.consoleErrors).toEqual([]);
      expect(opened.requests).toEqual([]);
      expect(await opened.page.textContent('#p')).toBe('hello');
      const box = await opened.page.locator('svg').boundingBox();
      expect(box).toEqual(expect.objectContaining({ width: 100, height: 50 }));
    } finally {
      await opened.close();
    }
  });

  test('GIVEN a page that asks for an outside image and logs an error WHEN opened THEN both are recorded and the request was refused', async () => {
    const opened = await openFile(
      page(
        'noisy.html',
        '<!doctype html><meta charset="utf-8"><title>noisy</title><link rel="icon" href="data:,"><img src="http://127.0.0.1:9/outside.png" alt=""><script>console.error("boom"); throw new Error("bang")</script>',
      ),
    );
    try {
      expect(opened.requests).toEqual(['http://127.0.0.1:9/outside.png']);
      expect(opened.consoleErrors).toEqual(expect.arrayContaining(['boom', expect.stringContaining('bang')]));
    } finally {
      await opened.close();
    }
  });

  test("GIVEN the unit project's global setup THEN every page opens in a context of its own of the run's one chromium", async () => {
    expect(process.env.HOPLAB_TEST_BROWSER).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\//);
    const file = page('shared.html', '<!doctype html><meta charset="utf-8"><title>shared</title><link rel="icon" href="data:,"><p>shared</p>');
    const [one, two] = [await openFile(file), await openFile(file)];
    try {
      // A page of a browser it connected to (a browser of its own would be a persistent context, whose browser() is null).
      expect(one.page.context().browser()?.isConnected()).toBe(true);
      expect(two.page.context()).not.toBe(one.page.context());
      expect(await two.page.textContent('p')).toBe('shared');
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  test('GIVEN no chromium WHEN a page is opened THEN the error says what is missing and how to install it', async () => {
    await expect(openFile(page('any.html', '<!doctype html>'), { chromium: join(dir, 'no-chromium') })).rejects.toThrow(
      `The browser tests need Debian's chromium at ${join(dir, 'no-chromium')}, and it is not there. Install it as root with \`apt-get update && apt-get install -y --no-install-recommends chromium\``,
    );
  });
});

describe('openUrl (test/support/browser.ts)', () => {
  test('GIVEN a page served on loopback that reads its server and asks elsewhere WHEN opened THEN its own origin answers, the other request is recorded and refused', async () => {
    const server = createServer((req, res) => {
      if (req.url === '/data') res.end('from the server');
      else
        res.end(
          '<!doctype html><meta charset="utf-8"><title>served</title><link rel="icon" href="data:,"><p id="p">waiting</p><img src="http://203.0.113.9/outside.png" alt="">' +
            "<script>fetch('/data').then(function (r) { return r.text(); }).then(function (t) { document.getElementById('p').textContent = t; });</script>",
        );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const opened = await openUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    try {
      await opened.page.waitForFunction(`document.getElementById('p').textContent === 'from the server'`, undefined, { timeout: 0 });
      expect(opened.requests).toEqual(['http://203.0.113.9/outside.png']);
    } finally {
      await opened.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('GIVEN a URL off loopback WHEN opened THEN it is refused before any browser starts', async () => {
    await expect(openUrl('http://203.0.113.9/')).rejects.toThrow('openUrl: http://203.0.113.9/ is not on loopback');
  });
});
