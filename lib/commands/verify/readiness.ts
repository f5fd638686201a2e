/**
 * Ready: each exposure's load balancer answers (2xx or 3xx: a redirect is an
 * answer) within a bounded wait. Load balancers take minutes to provision and
 * to pass health checks, so each is polled until the deadline; each attempt
 * is told to `onAttempt` (verify's live progress shows the latest), and the
 * outcome to `progress` as one line.
 */

export interface ReadyResult {
  readonly label: string;
  readonly url: string | null;
  readonly ready: boolean;
  /** Seconds until the first good answer, or waited in vain. */
  readonly seconds: number;
  readonly attempts: number;
  /** The last answer or error (why not ready). */
  readonly last: string;
}

export interface ReadyOptions {
  /** Total wait per exposure, ms. */
  readonly waitMs: number;
  /** Between attempts, ms. @default 5000 */
  readonly intervalMs?: number;
  /** One request's deadline, ms. @default 5000 */
  readonly requestTimeoutMs?: number;
  /** The outcome, one line: ready after how long, or not ready and why. */
  readonly progress?: (line: string) => void;
  /** After each attempt that was not the last: how many so far, the answer, ms since the start. */
  readonly onAttempt?: (attempt: { readonly attempts: number; readonly last: string; readonly elapsedMs: number }) => void;
}

/** Whether an HTTP status means the load balancer answers for the app: 2xx, or 3xx (a redirect is an answer too). */
export function isReadyStatus(status: number): boolean {
  return status >= 200 && status < 400;
}

/** Polls `url` until it answers 2xx/3xx or `waitMs` passes. */
export async function waitReady(label: string, url: string | null, options: ReadyOptions): Promise<ReadyResult> {
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 100) / 10;
  if (!url) return { label, url, ready: false, seconds: 0, attempts: 0, last: 'no URL in the output (not deployed, or the controller has not set the address yet)' };
  const interval = options.intervalMs ?? 5000;
  let attempts = 0;
  let last = '';
  for (;;) {
    attempts += 1;
    try {
      const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(options.requestTimeoutMs ?? 5000) });
      await response.arrayBuffer();
      last = `HTTP ${response.status}`;
      if (isReadyStatus(response.status)) {
        options.progress?.(`ready: ${label} answered ${last} after ${seconds()} s`);
        return { label, url, ready: true, seconds: seconds(), attempts, last };
      }
    } catch (error) {
      const { name, message, cause } = (error ?? {}) as { name?: string; message?: string; cause?: { code?: string } };
      last = name === 'TimeoutError' ? 'no answer (timeout)' : cause?.code ?? message ?? String(error);
    }
    const elapsed = Date.now() - started;
    if (elapsed + interval > options.waitMs) {
      options.progress?.(`ready: ${label} NOT ready after ${seconds()} s (${attempts} attempts, last: ${last})`);
      return { label, url, ready: false, seconds: seconds(), attempts, last };
    }
    options.onAttempt?.({ attempts, last, elapsedMs: elapsed });
    await new Promise((r) => setTimeout(r, interval));
  }
}
