/**
 * The date and time of day, for what depends on the day a command runs (a
 * workshop's expiry). Commands take one, so tests give them a fixed day
 * instead of depending on the day they run. (Elapsed time and timers are
 * LiveClock's and WaitClock's.)
 */
export interface WallClock {
  /** Now, as a date. */
  now(): Date;
}

/** The host's own clock. */
export const SYSTEM_WALL_CLOCK: WallClock = { now: () => new Date() };
