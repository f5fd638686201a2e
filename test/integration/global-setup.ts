/**
 * Global setup of the `emulator` jest project (runs once per jest run, in the
 * parent process, only when a test/integration file is selected): builds the
 * stale commands in one esbuild run, starts one moto for every emulator test of
 * the run, and creates the run's scratch folder. Workers get both through the
 * environment (see harness.ts); global-teardown.ts stops moto and removes the folder.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startMoto } from '../../lib/local/moto';

const ROOT = resolve(__dirname, '..', '..');

export default async function globalSetup(): Promise<void> {
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0) {
    throw new Error(`emulator tests: the commands do not build:\n${built.stdout}${built.stderr}`);
  }
  const emulator = await startMoto();
  process.env.HOPLAB_TEST_EMULATOR = emulator.endpoint;
  process.env.HOPLAB_TEST_RUN_DIR = mkdtempSync(join(tmpdir(), 'hoplab-jest-'));
  (globalThis as { hoplabTestEmulator?: { stop(): Promise<void> } }).hoplabTestEmulator = emulator;
}
