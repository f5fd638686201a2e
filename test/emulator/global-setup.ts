/**
 * Global setup of the `emulator` jest project (runs once per jest run, in the
 * parent process, only when a test/emulator file is selected): builds the
 * stale commands in one esbuild run, starts one moto for every emulator test of
 * the run and the pool of AWS providers Terraform attaches to (provider-pool.ts),
 * and creates the run's scratch folder. Workers get them through the environment
 * (see harness.ts); global-teardown.ts stops moto and the pool and removes the folder.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startMoto } from '../../lib/commands/local/moto';
import { startProviderPool } from './provider-pool';

const ROOT = resolve(__dirname, '..', '..');

export default async function globalSetup(): Promise<void> {
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0) {
    throw new Error(`emulator tests: the commands do not build:\n${built.stdout}${built.stderr}`);
  }
  const emulator = await startMoto();
  process.env.HOPLAB_TEST_EMULATOR = emulator.endpoint;
  const runDir = mkdtempSync(join(tmpdir(), 'hoplab-jest-'));
  process.env.HOPLAB_TEST_RUN_DIR = runDir;
  (globalThis as { hoplabTestEmulator?: { stop(): Promise<void> } }).hoplabTestEmulator = emulator;
  // One provider per emulator worker (scripts/test.mjs runs 4): at most that many Terraform commands run at once.
  const pool = await startProviderPool(join(runDir, 'providers'), Number(process.env.HOPLAB_JEST_WORKERS) || 4);
  if (pool) {
    Object.assign(process.env, pool.env);
    (globalThis as { hoplabTestProviderPool?: { stop(): Promise<void> } }).hoplabTestProviderPool = pool;
  }
}
