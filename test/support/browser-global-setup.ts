/**
 * Global setup of the `unit` jest project: one chromium for every browser
 * test of the run (playwright-core's `launchServer`, on a loopback WebSocket
 * endpoint, with the flags of browser.ts and a fresh, empty profile of its
 * own), instead of one start per test file. The workers connect to it through
 * `HOPLAB_TEST_BROWSER` (see openFile in browser.ts), each test file in a
 * context of its own; browser-global-teardown.ts closes it.
 *
 * It starts only when a browser test is selected, and never fails the run: with
 * no chromium at /usr/bin/chromium the browser tests fail with how to install
 * it, as before, and the others run.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '@jest/types';
import type { BrowserServer } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from './browser';

const ROOT = resolve(__dirname, '..', '..');

/** The unit project's browser test files: `*.browser.test.ts`, and browser.ts's own test. */
export function browserTestFiles(dir = join(ROOT, 'test')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'emulator' || e.name === 'fixtures' ? [] : browserTestFiles(path);
    return e.name.endsWith('.browser.test.ts') || path === join(ROOT, 'test', 'support', 'browser.test.ts') ? [path] : [];
  });
}

/** Whether the run selects a browser test file: no path pattern given, or one that matches such a file. */
function selectsBrowserTests(globalConfig: Config.GlobalConfig): boolean {
  const patterns = (globalConfig as { testPathPatterns?: { isSet(): boolean; toExecutor(o: { rootDir: string }): { isMatch(path: string): boolean } } }).testPathPatterns;
  if (!patterns?.isSet()) return true;
  const executor = patterns.toExecutor({ rootDir: globalConfig.rootDir });
  return browserTestFiles().some((file) => executor.isMatch(file));
}

export default async function globalSetup(globalConfig: Config.GlobalConfig): Promise<void> {
  if (!existsSync(CHROMIUM) || !selectsBrowserTests(globalConfig)) return;
  const { chromium } = await import('playwright-core');
  const server: BrowserServer = await chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_FLAGS], host: '127.0.0.1', timeout: 0 });
  process.env.HOPLAB_TEST_BROWSER = server.wsEndpoint();
  (globalThis as { hoplabTestBrowser?: BrowserServer }).hoplabTestBrowser = server;
}
