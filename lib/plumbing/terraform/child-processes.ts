import { ChildProcess } from 'node:child_process';

/**
 * Children hoplab starts in process groups of their own (`detached: true`), so
 * that a terminal's Ctrl-C reaches hoplab alone: hoplab then asks Terraform
 * once to stop gracefully, and stops the emulator only after cleaning up.
 * (In hoplab's own group, Terraform would get two interrupts and "exit
 * immediately", and moto would die before the cleanup destroy.) Whatever is
 * still running when hoplab exits is killed here, so nothing is left behind.
 */
const running = new Set<ChildProcess>();
let hooked = false;

export function track(child: ChildProcess): ChildProcess {
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (!hooked) {
    hooked = true;
    process.once('exit', () => {
      for (const orphan of running) {
        try {
          process.kill(-orphan.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    });
  }
  return child;
}
