/**
 * Sends a bounded number of HTTP GETs to an exposure's URL and measures what
 * comes back: latency, errors, which Pods and nodes answered, and the client
 * address the Pod saw. Every request has a deadline (connect, response and
 * body), a new connection (so connection-level balancing shows), and a body
 * cap; a dead endpoint costs at most a few timeouts, never a hang.
 */
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { EchoReply, parseEchoReply } from './echo-reply';
import { ProbeProgress, SILENT_PROGRESS } from './progress';

/** Largest reply body read; echoserver replies are well under 2 KiB. */
const MAX_BODY = 64 * 1024;

export interface ProbeOptions {
  /** Requests to send. */
  readonly count: number;
  /** Requests in flight at once. */
  readonly concurrency: number;
  /** Deadline of one request, in milliseconds. */
  readonly timeoutMs: number;
  /**
   * Stop after this many failures in a row with no success yet (a dead endpoint).
   * @default 5
   */
  readonly giveUpAfter?: number;
  /** @default - no progress output */
  readonly progress?: ProbeProgress;
  /** Label for progress lines. @default the URL */
  readonly label?: string;
}

/** One request's outcome. */
export type Sample = { readonly ok: true; readonly ms: number; readonly status: number; readonly reply: EchoReply } | { readonly ok: false; readonly ms: number; readonly error: string };

function describeError(error: NodeJS.ErrnoException, timeoutMs: number): string {
  if (error.name === 'AbortError' || error.code === 'ABORT_ERR' || error.name === 'TimeoutError') {
    return `timeout (${timeoutMs} ms)`;
  }
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found (DNS)';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'no route to host';
    case 'ETIMEDOUT':
      return 'connect timeout';
    default:
      return error.code ?? error.message;
  }
}

/** One GET with a deadline over the whole exchange. */
export function probeOnce(url: URL, timeoutMs: number): Promise<Sample> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (sample: Sample) => {
      if (!settled) {
        settled = true;
        resolve(sample);
      }
    };
    const deadline = AbortSignal.timeout(timeoutMs);
    // Only the deadline is a timeout: a reply cut off by the peer (a load balancer's reset, a Pod
    // killed in a rollout) is reported as what it is, whatever error name Node gives it.
    let replyStarted = false;
    const fail = (error: NodeJS.ErrnoException) =>
      finish({
        ok: false,
        ms: elapsed(),
        error: deadline.aborted ? `timeout (${timeoutMs} ms)` : replyStarted ? 'connection reset or closed mid-reply' : describeError(error, timeoutMs),
      });
    // Node reports a TCP reset and a plain early close alike (an aborted response), so both read
    // "reset or closed mid-reply"; what matters is that it is not a timeout.
    const cutOff = () => finish({ ok: false, ms: elapsed(), error: deadline.aborted ? `timeout (${timeoutMs} ms)` : 'connection reset or closed mid-reply' });
    const client = url.protocol === 'https:' ? https : http;
    const request = client.get(
      url,
      {
        agent: false,
        signal: deadline,
        headers: { 'user-agent': 'hoplab-compare', connection: 'close', accept: 'text/plain' },
      },
      (response) => {
        replyStarted = true;
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_BODY) {
            chunks.push(chunk);
          } else {
            response.destroy();
            finish({ ok: false, ms: elapsed(), error: `reply larger than ${MAX_BODY} bytes` });
          }
        });
        response.on('error', cutOff);
        response.on('aborted', cutOff);
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          if (status < 200 || status >= 400) {
            finish({ ok: false, ms: elapsed(), error: `HTTP ${status}` });
            return;
          }
          finish({ ok: true, ms: elapsed(), status, reply: parseEchoReply(Buffer.concat(chunks).toString('utf8')) });
        });
      },
    );
    request.on('error', fail);
  });
}

/** `count` requests, at most `concurrency` at once, in order of completion. */
export async function probeUrl(url: URL, options: ProbeOptions): Promise<{ samples: Sample[]; gaveUp: boolean }> {
  const progress = options.progress ?? SILENT_PROGRESS;
  const giveUpAfter = options.giveUpAfter ?? 5;
  const samples: Sample[] = [];
  let next = 0;
  let failuresInARow = 0;
  let anySuccess = false;
  let gaveUp = false;
  progress.start(options.label ?? url.href, options.count);
  const worker = async () => {
    while (next < options.count && !gaveUp) {
      next += 1;
      const sample = await probeOnce(url, options.timeoutMs);
      samples.push(sample);
      progress.tick(sample.ok);
      anySuccess ||= sample.ok;
      failuresInARow = sample.ok ? 0 : failuresInARow + 1;
      if (!anySuccess && failuresInARow >= giveUpAfter) {
        gaveUp = true;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, options.count)) }, worker));
  return { samples, gaveUp };
}

/** Bounds of the probe settings: a probe is always short and never floods an endpoint. */
export const PROBE_LIMITS = {
  count: { min: 1, max: 1000, default: 20 },
  concurrency: { min: 1, max: 32, default: 4 },
  timeout: { min: 100, max: 60_000, default: 5000 },
} as const;
