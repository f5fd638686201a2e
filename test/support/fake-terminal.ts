/**
 * A clock the test moves by hand and a stream that records what is written
 * to it, posing as a terminal (isTTY, columns) or as a pipe: for the live
 * progress of deploy, teardown and verify (lib/kit/terminal/live-status.ts).
 */
import { LiveClock } from '../../lib/kit/terminal/live-status';

export class FakeClock implements LiveClock {
  private timers: { ms: number; tick: () => void; next: number; active: boolean }[] = [];

  constructor(private t = 0) {}

  now(): number {
    return this.t;
  }

  every(ms: number, tick: () => void): () => void {
    const timer = { ms, tick, next: this.t + ms, active: true };
    this.timers.push(timer);
    return () => {
      timer.active = false;
    };
  }

  /** Moves time on by `ms`, running each timer as often as it falls due, in time order. */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.active && t.next <= end).sort((a, b) => a.next - b.next)[0];
      if (!due) break;
      this.t = due.next;
      due.next += due.ms;
      due.tick();
    }
    this.t = end;
  }

  /** Timers still running. */
  get activeTimers(): number {
    return this.timers.filter((t) => t.active).length;
  }
}

/** A stream that keeps each write: a terminal of `columns` when `isTTY`, else a pipe. */
export class FakeStream {
  readonly writes: string[] = [];

  constructor(readonly isTTY: boolean, readonly columns?: number) {}

  write(text: string): boolean {
    this.writes.push(text);
    return true;
  }

  /** Everything written, as one string. */
  get text(): string {
    return this.writes.join('');
  }
}
