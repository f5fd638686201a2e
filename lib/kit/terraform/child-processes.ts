import { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

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

/** One line of /proc/<pid>/stat: the parent and the CPU time used (user + system, its waited-for children's included), in ms. */
export interface ProcStat {
  readonly ppid: number;
  readonly cpuMs: number;
}

/** Linux's USER_HZ, the unit of the CPU times in /proc/<pid>/stat (100 on every Linux ABI node runs on). */
const TICK_MS = 10;

/** Parses the text of /proc/<pid>/stat; undefined when it is not one. */
export function parseProcStat(text: string): ProcStat | undefined {
  // The command name (field 2) is in parentheses and may hold spaces or parentheses: the fields start after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const [ppid, utime, stime, cutime, cstime] = [fields[1], fields[11], fields[12], fields[13], fields[14]].map(Number);
  if (![ppid, utime, stime, cutime, cstime].every(Number.isFinite)) return undefined;
  return { ppid, cpuMs: (utime + stime + cutime + cstime) * TICK_MS };
}

/** The CPU time (ms) process `pid` has used so far, or undefined where that cannot be read (not Linux, or the process is gone). */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.cpuMs;
  } catch {
    return undefined;
  }
}
