/**
 * Opens a page written to disk in a real browser: Debian's chromium at
 * /usr/bin/chromium, driven by playwright-core (which brings no browser of
 * its own). Every request that is not the file itself is recorded and
 * refused, so nothing leaves the machine and a test can assert there was
 * none; console errors and uncaught page errors are recorded too.
 *
 * One chromium serves the whole jest run (browser-global-setup.ts starts it
 * and names its endpoint in `HOPLAB_TEST_BROWSER`): each page opens in a
 * context of its own, with nothing stored. Without that endpoint (a run
 * without the unit project's global setup) a page starts a chromium of its own
 * with a fresh, empty profile.
 *
 * When chromium is missing the test fails (never skips) with how to install
 * it: `apt-get install -y --no-install-recommends chromium` as root, which
 * `.ci/run` does on CI.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';

/** The run's chromium (browser-global-setup.ts), when there is one. */
const SHARED_BROWSER = 'HOPLAB_TEST_BROWSER';

/** Where Debian's chromium package puts the browser. */
export const CHROMIUM = '/usr/bin/chromium';

/** The flags chromium runs with: headless, no sandbox (root in a container), and nothing that calls home. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // /dev/shm is small in containers; chromium then crashes tabs with large pages.
  '--disable-dev-shm-usage',
] as const;

/** The message when the browser is not there: what is missing and how to get it. */
export function missingChromiumMessage(path: string = CHROMIUM): string {
  return (
    `The browser tests need Debian's chromium at ${path}, and it is not there. ` +
    'Install it as root with `apt-get update && apt-get install -y --no-install-recommends chromium` ' +
    '(.ci/run does this on CI; see docs/getting-started.md, Requirements). ' +
    'The tests drive it with playwright-core, which brings no browser of its own.'
  );
}

/** An opened page and what it did while loading. */
export interface OpenedPage {
  readonly page: Page;
  /** Console messages of type `error` and uncaught exceptions, in order. */
  readonly consoleErrors: string[];
  /** Every request the page made that is not the file itself (each was refused). */
  readonly requests: string[];
  /** Closes the page's context (and its own browser and profile folder, when it started one). */
  close(): Promise<void>;
}

/** The drawn width and height (CSS pixels) of each element `selector` matches in the page, in document order. */
export function drawnSizes(opened: OpenedPage, selector: string): Promise<{ width: number; height: number }[]> {
  return opened.page.$$eval(selector, (elements) => elements.map((e) => ({ width: e.getBoundingClientRect().width, height: e.getBoundingClientRect().height })));
}

/**
 * Opens `path` (a file on disk) in headless chromium, in a fresh context of
 * the run's browser (else of a browser of its own with a fresh, empty profile),
 * and waits for its `load` event. `options.chromium` is for the helper's own
 * test of a missing browser; tests of pages leave it out. No timeout of its own: jest's
 * global one is the safety net, so a busy machine makes it slow, not failed.
 */
export async function openFile(path: string, options: { readonly chromium?: string } = {}): Promise<OpenedPage> {
  const chromium = options.chromium ?? CHROMIUM;
  if (!existsSync(chromium)) {
    throw new Error(missingChromiumMessage(chromium));
  }
  const file = resolve(path);
  if (!existsSync(file)) {
    throw new Error(`openFile: no file at ${file}`);
  }
  const url = pathToFileURL(file).href;
  return openPage(url, (request) => request === url, { chromium, offline: true });
}

/**
 * Opens a page a test serves on loopback (`http://127.0.0.1:PORT/...`) as {@link openFile}
 * opens a file: every request to the page's own origin goes through (a live page reads its
 * server), every other one is recorded in `requests` and refused.
 */
export async function openUrl(url: string): Promise<OpenedPage> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(missingChromiumMessage(CHROMIUM));
  }
  const origin = new URL(url).origin;
  if (!/^http:\/\/(127\.\d+\.\d+\.\d+|\[::1\]|localhost)(:\d+)?$/.test(origin)) throw new Error(`openUrl: ${url} is not on loopback`);
  return openPage(url, (request) => new URL(request).origin === origin, { chromium: CHROMIUM, offline: false });
}

/** Opens `url` with only the requests `allowed` passes let through (the others recorded and refused). */
async function openPage(url: string, allowed: (request: string) => boolean, options: { readonly chromium: string; readonly offline: boolean }): Promise<OpenedPage> {
  const { chromium, offline } = options;
  let playwright: typeof import('playwright-core');
  try {
    playwright = await import('playwright-core');
  } catch (error) {
    throw new Error(`The browser tests need the devDependency playwright-core: run \`npm ci\` (${(error as Error).message})`);
  }
  const consoleErrors: string[] = [];
  const requests: string[] = [];
  const shared = chromium === CHROMIUM ? process.env[SHARED_BROWSER] : undefined;
  let context: BrowserContext;
  let close: () => Promise<void>;
  if (shared) {
    let browser: import('playwright-core').Browser;
    try {
      browser = await playwright.chromium.connect(shared, { timeout: 0 });
    } catch (error) {
      throw new Error(`could not reach the run's chromium at ${shared} (test/support/browser-global-setup.ts): ${(error as Error).message}`);
    }
    context = await browser.newContext({ offline });
    close = async () => {
      await context.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
    };
  } else {
    const profile = mkdtempSync(join(tmpdir(), 'hoplab-chromium-'));
    try {
      // launchPersistentContext is how playwright takes a --user-data-dir: a fresh, empty one here.
      context = await playwright.chromium.launchPersistentContext(profile, {
        executablePath: chromium,
        headless: true,
        args: [...CHROMIUM_FLAGS],
        timeout: 0,
        offline,
      });
    } catch (error) {
      rmSync(profile, { recursive: true, force: true });
      throw new Error(`could not start ${chromium}: ${(error as Error).message}`);
    }
    close = async () => {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    };
  }
  try {
    context.setDefaultTimeout(0);
    context.setDefaultNavigationTimeout(0);
    await context.route('**/*', async (route) => {
      if (allowed(route.request().url())) {
        await route.continue();
      } else {
        await route.abort('blockedbyclient');
      }
    });
    context.on('request', (request) => {
      if (!allowed(request.url())) {
        requests.push(request.url());
      }
    });
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (message) => {
      if (message.type() === 'error') {
        consoleErrors.push(message.text());
      }
    });
    page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
    await page.goto(url, { waitUntil: 'load' });
    return { page, consoleErrors, requests, close };
  } catch (error) {
    await close();
    throw error;
  }
}
