/**
 * Sends a bounded number of HTTP GETs to an exposure's URL and measures what
 * comes back: latency, errors, which Pods and nodes answered, and the client
 * address the Pod saw. Every request has a deadline (connect, response and
 * body), a new connection (so connection-level balancing shows), and a body
 * cap; a dead endpoint costs at most a few timeouts, never a hang. The GET is
 * written on a plain TCP (or TLS) socket and the reply read by `ReplyParser`:
 * a half to two thirds of the CPU of Node's HTTP client per request
 * (docs/benchmarks.md), which is what bounds probing hundreds of exposures
 * at once.
 */
import { connect as netConnect, isIP, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { connect as tlsConnect, ConnectionOptions } from 'node:tls';
import { EchoReply, parseEchoReply } from './echo-reply';
import { ReplyParser } from '../../kit/http/http-reply';
import { onAbort } from '../../kit/cli/on-abort';
import { Limiter } from './limiter';
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
  /**
   * The bound on requests in flight shared with other exposures probed at the same time.
   * @default - only this exposure's `concurrency`
   */
  readonly limiter?: Limiter;
  /** Ctrl-C: the requests in flight end and no more are sent; their samples are dropped. @default - never */
  readonly stop?: AbortSignal;
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

/** The error of a request ended because the caller stopped (`stop` aborted), not by the endpoint: callers drop such samples. */
export const STOPPED = 'stopped';

/** One GET with a deadline over the whole exchange; `stop` ends it early (its sample then says {@link STOPPED}). */
export function probeOnce(url: URL, timeoutMs: number, stop?: AbortSignal, tlsOptions: Pick<ConnectionOptions, 'ca'> = {}): Promise<Sample> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  return new Promise((resolve) => {
    let settled = false;
    /** The connection, once opened (finish may run before: a stop signal already aborted). */
    const connection: { socket?: Socket } = {};
    const parser = new ReplyParser(MAX_BODY);
    const finish = (sample: Sample) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      stopWaiting();
      connection.socket?.destroy();
      resolve(sample);
    };
    const failWith = (error: string) => finish({ ok: false, ms: elapsed(), error });
    const deadline = setTimeout(() => failWith(`timeout (${timeoutMs} ms)`), timeoutMs);
    const onStop = () => failWith(STOPPED);
    let stopWaiting: () => void = () => undefined;
    if (stop?.aborted) {
      onStop();
      return;
    }
    // One listener on `stop` for all the requests in flight (a watch has one per exposure and more), ended with the request.
    if (stop) stopWaiting = onAbort(stop, onStop);
    const complete = () => {
      const status = parser.status;
      if (status < 200 || status >= 400) failWith(`HTTP ${status}`);
      else finish({ ok: true, ms: elapsed(), status, reply: parseEchoReply(parser.body().toString('utf8')) });
    };
    // A reply cut off by the peer (a load balancer's reset, a Pod killed in a rollout) is reported as what it
    // is, whether it came as a reset or a plain close: only the deadline is a timeout.
    const cutOff = (error?: NodeJS.ErrnoException) => failWith(parser.received > 0 ? 'connection reset or closed mid-reply' : error ? describeError(error, timeoutMs) : 'connection reset');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const https = url.protocol === 'https:';
    const port = Number(url.port || (https ? 443 : 80));
    const request = `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nUser-Agent: hoplab-compare\r\nAccept: text/plain\r\nConnection: close\r\n\r\n`;
    const opened = https ? tlsConnect({ host, port, ...(isIP(host) === 0 ? { servername: host } : {}), ALPNProtocols: ['http/1.1'], ...tlsOptions }) : netConnect({ host, port });
    connection.socket = opened;
    opened.once(https ? 'secureConnect' : 'connect', () => opened.write(request));
    opened.on('data', (chunk: Buffer) => {
      const state = parser.push(chunk);
      if (state === 'complete') complete();
      else if (state === 'too-large') failWith(`reply larger than ${MAX_BODY} bytes`);
      else if (state === 'not-http') failWith('not an HTTP reply');
    });
    opened.on('end', () => (parser.end() === 'complete' ? complete() : cutOff()));
    opened.on('error', (error: NodeJS.ErrnoException) => cutOff(error));
    opened.on('close', () => (parser.end() === 'complete' ? complete() : cutOff()));
  });
}

/**
 * `count` requests, at most `concurrency` at once (and, with a `limiter`, only
 * while the shared bound has room), in order of completion. `stopped`: `stop`
 * ended it before every request was answered (the samples are those that were).
 */
export async function probeUrl(url: URL, options: ProbeOptions): Promise<{ samples: Sample[]; gaveUp: boolean; stopped: boolean }> {
  const progress = options.progress ?? SILENT_PROGRESS;
  const giveUpAfter = options.giveUpAfter ?? 5;
  const label = options.label ?? url.href;
  const samples: Sample[] = [];
  let next = 0;
  let failuresInARow = 0;
  let anySuccess = false;
  let gaveUp = false;
  progress.start(label, options.count);
  const worker = async () => {
    while (next < options.count && !gaveUp && !options.stop?.aborted) {
      next += 1;
      await options.limiter?.acquire();
      if (gaveUp || options.stop?.aborted) {
        // Given up (or stopped) while this request waited for a slot of the shared bound: it is not sent.
        next -= 1;
        options.limiter?.release();
        break;
      }
      let sample: Sample;
      try {
        sample = await probeOnce(url, options.timeoutMs, options.stop);
      } finally {
        options.limiter?.release();
      }
      // Cut off by the stop, not by the endpoint: no sample.
      if (!sample.ok && sample.error === STOPPED) break;
      samples.push(sample);
      progress.tick(label, sample.ok);
      anySuccess ||= sample.ok;
      failuresInARow = sample.ok ? 0 : failuresInARow + 1;
      if (!anySuccess && failuresInARow >= giveUpAfter) {
        gaveUp = true;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, options.count)) }, worker));
  return { samples, gaveUp, stopped: !gaveUp && samples.length < options.count };
}

/** Bounds of the probe settings: a probe is always short and never floods an endpoint. */
export const PROBE_LIMITS = {
  count: { min: 1, max: 1000, default: 20 },
  concurrency: { min: 1, max: 32, default: 4 },
  /** Requests in flight over all exposures probed together (see docs/explain-and-compare.md for the default). */
  maxInFlight: { min: 1, max: 4096, default: 1024 },
  timeout: { min: 100, max: 60_000, default: 5000 },
} as const;
