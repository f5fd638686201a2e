/** Global teardown of the `emulator` jest project: stops the run's moto and provider pool and removes the run's scratch folder. */
import { rmSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  const run = globalThis as { hoplabTestEmulator?: { stop(): Promise<void> }; hoplabTestProviderPool?: { stop(): Promise<void> } };
  await Promise.all([run.hoplabTestEmulator?.stop(), run.hoplabTestProviderPool?.stop()]);
  const runDir = process.env.HOPLAB_TEST_RUN_DIR;
  if (runDir) rmSync(runDir, { recursive: true, force: true });
}
