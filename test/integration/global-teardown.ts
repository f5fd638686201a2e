/** Global teardown of the `emulator` jest project: stops the run's moto and removes the run's scratch folder. */
import { rmSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { hoplabTestEmulator?: { stop(): Promise<void> } }).hoplabTestEmulator?.stop();
  const runDir = process.env.HOPLAB_TEST_RUN_DIR;
  if (runDir) rmSync(runDir, { recursive: true, force: true });
}
