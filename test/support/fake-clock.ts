/**
 * A clock for tests that runs as fast as the work allows: time stands still
 * while promise jobs are pending, and when everything waits on the clock it
 * jumps to the earliest wake-up. Timing is exact and
 * repeatable whatever the machine's load.
 */
import { WaitClock } from '../../lib/kit/cli/wait-clock';
import { onAbort } from '../../lib/kit/cli/on-abort';

interface Timer {
  readonly at: number;
  readonly wake: () => void;
}

export class FakeClock implements WaitClock {
  private t = 0;
  private timers: Timer[] = [];
  private scheduled = false;

  now(): number {
    return this.t;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const timer: Timer = {
        at: this.t + Math.max(0, ms),
        wake: () => {
          stopWaiting();
          resolve();
        },
      };
      // One listener on the signal for every sleeper, as the real clock's, ended with the sleep.
      const stopWaiting = signal
        ? onAbort(signal, () => {
            this.timers = this.timers.filter((x) => x !== timer);
            resolve();
          })
        : () => undefined;
      this.timers.push(timer);
      this.schedule();
    });
  }

  /** Advances to the earliest wake-up once the pending promise jobs have run. */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.timers.length === 0) return;
      const at = Math.min(...this.timers.map((x) => x.at));
      this.t = Math.max(this.t, at);
      const due = this.timers.filter((x) => x.at <= this.t);
      this.timers = this.timers.filter((x) => x.at > this.t);
      for (const timer of due) timer.wake();
      if (this.timers.length > 0) this.schedule();
    });
  }
}
