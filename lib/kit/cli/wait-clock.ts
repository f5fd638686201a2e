/**
 * Time for what waits (a watch's senders, verify's readiness polls): milliseconds, and a sleep
 * that an abort (Ctrl-C) ends early. Injected, so tests drive time with a fake clock
 * (test/support/fake-clock.ts) instead of waiting on the wall clock.
 */
import { performance } from 'node:perf_hooks';
import { onAbort } from './on-abort';

/** Milliseconds, and a sleep that an abort ends early. */
export interface WaitClock {
  now(): number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/** The real clock: performance.now and setTimeout. */
export const REAL_WAIT_CLOCK: WaitClock = {
  now: () => performance.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal.aborted) return resolve();
      // One listener on the signal for every sleeper (each sender sleeps on it), ended with the sleep.
      const done = () => {
        clearTimeout(timer);
        stopWaiting();
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      const stopWaiting = onAbort(signal, done);
    }),
};
