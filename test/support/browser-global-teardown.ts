/** Global teardown of the `unit` jest project: closes the run's chromium (browser-global-setup.ts), if it started one. */
import type { BrowserServer } from 'playwright-core';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { hoplabTestBrowser?: BrowserServer }).hoplabTestBrowser?.close();
}
