/**
 * Ready: each exposure's load balancer answers (2xx or 3xx: a redirect is an
 * answer) within a bounded wait. Load balancers take minutes to provision and
 * to pass health checks, so each is polled until the deadline; each attempt
 * is told to `onAttempt` (verify's live progress shows the latest), and the
 * outcome to `progress` as one line. verify waits for its exposures side by
 * side (they are independent URLs), sharing a bound on requests in flight
 * (`READY_WAIT.inFlight`), so the longest wait is about one `--wait` however
 * many exposures there are (past that bound, requests that time out take turns:
 * the time estimate counts the turns); Ctrl-C (`signal`) ends every wait at once.
 */
import { REAL_WAIT_CLOCK, WaitClock } from '../../kit/cli/wait-clock';
import { READY_WAIT } from '../../lab/probe/flags';
import { Limiter } from '../../lab/probe/limiter';

export interface ReadyResult {
  readonly label: string;
  readonly url: string | null;
  readonly ready: boolean;
  /** Seconds until the first good answer, or waited in vain (or until interrupted). */
  readonly seconds: number;
  readonly attempts: number;
  /** The last answer or error (why not ready). */
  readonly last: string;
  /** The wait was stopped (Ctrl-C) before it was decided: neither ready nor not, so it is no verdict. @default - not interrupted */
  readonly interrupted?: true;
}

export interface ReadyOptions {
  /** Total wait per exposure, ms. */
  readonly waitMs: number;
  /** Between attempts, ms. @default READY_WAIT.intervalMs (5 s) */
  readonly intervalMs?: number;
  /** One request's deadline, ms. @default READY_WAIT.requestTimeoutMs (5 s) */
  readonly requestTimeoutMs?: number;
  /** The outcome, one line: ready after how long, or not ready and why (nothing when interrupted). */
  readonly progress?: (line: string) => void;
  /** After each attempt that was not the last: how many so far, the answer, ms since the start. */
  readonly onAttempt?: (attempt: { readonly attempts: number; readonly last: string; readonly elapsedMs: number }) => void;
  /** Ctrl-C: the request in flight and the wait end at once; the result is then `interrupted`. @default - never */
  readonly signal?: AbortSignal;
  /** What the wait measures and sleeps on. @default REAL_WAIT_CLOCK */
  readonly clock?: WaitClock;
  /** The bound on requests in flight shared with the exposures waited for at the same time. @default - none */
  readonly limiter?: Limiter;
}

/** Whether an HTTP status means the load balancer answers for the app: 2xx, or 3xx (a redirect is an answer too). */
export function isReadyStatus(status: number): boolean {
  return status >= 200 && status < 400;
}

const NEVER = new AbortController().signal;

/** Polls `url` until it answers 2xx/3xx, `waitMs` passes, or `signal` aborts. */
export async function waitReady(label: string, url: string | null, options: ReadyOptions): Promise<ReadyResult> {
  const clock = options.clock ?? REAL_WAIT_CLOCK;
  const signal = options.signal ?? NEVER;
  const started = clock.now();
  const seconds = () => Math.round((clock.now() - started) / 100) / 10;
  if (!url) return { label, url, ready: false, seconds: 0, attempts: 0, last: 'no URL in the output (not deployed, or the controller has not set the address yet)' };
  const interval = options.intervalMs ?? READY_WAIT.intervalMs;
  let attempts = 0;
  let last = 'no answer yet';
  const interrupted = (): ReadyResult => ({ label, url, ready: false, seconds: seconds(), attempts, last, interrupted: true });
  for (;;) {
    if (signal.aborted) return interrupted();
    await options.limiter?.acquire();
    try {
      if (signal.aborted) return interrupted();
      attempts += 1;
      const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.any([AbortSignal.timeout(options.requestTimeoutMs ?? READY_WAIT.requestTimeoutMs), signal]) });
      await response.arrayBuffer();
      last = `HTTP ${response.status}`;
      if (isReadyStatus(response.status)) {
        options.progress?.(`ready: ${label} answered ${last} after ${seconds()} s`);
        return { label, url, ready: true, seconds: seconds(), attempts, last };
      }
    } catch (error) {
      // Stopped by Ctrl-C, not by the endpoint: that attempt's end says nothing about it.
      if (signal.aborted) return interrupted();
      const { name, message, cause } = (error ?? {}) as { name?: string; message?: string; cause?: { code?: string } };
      last = name === 'TimeoutError' ? 'no answer (timeout)' : cause?.code ?? message ?? String(error);
    } finally {
      options.limiter?.release();
    }
    const elapsed = clock.now() - started;
    if (elapsed + interval > options.waitMs) {
      options.progress?.(`ready: ${label} NOT ready after ${seconds()} s (${attempts} attempts, last: ${last})`);
      return { label, url, ready: false, seconds: seconds(), attempts, last };
    }
    options.onAttempt?.({ attempts, last, elapsedMs: elapsed });
    await clock.sleep(interval, signal);
  }
}
