/**
 * A reader for Google Cloud's REST APIs (Compute Engine, GKE, IAM, Resource
 * Manager, Service Usage) and a GKE cluster's Kubernetes API: bearer-token
 * requests with a bounded time each, the quota project header, every page of
 * a list, and aggregated lists that fail rather than hide a scope they could
 * not read. It only makes calls of the kit's {@link GoogleCall} shape, each of which names
 * the IAM permission it needs. A GET (idempotent: it changes nothing) that
 * meets an overloaded or failing API (429, 500, 502, 503, 504) or a reset
 * connection is tried again, a bounded number of times, after waits that grow
 * ({@link GOOGLE_RETRY}); nothing else is.
 */
import { httpsRequestText } from '../http/https-request';
import { callPath, GOOGLE_API_BASES, GoogleApiBases, GoogleCall, QUOTA_PROJECT_APIS } from './google-calls';

export { gcpAccessToken, gcpCredentials, GcpCredentials } from './google-credentials';

/** Compute Engine API base; tests point it at recorded responses served on loopback. */
export const COMPUTE_API = GOOGLE_API_BASES.compute;
/** GKE API base. */
export const CONTAINER_API = GOOGLE_API_BASES.container;

/** IAM API (service accounts). */
export const IAM_API = GOOGLE_API_BASES.iam;

/** Cloud Resource Manager API (project IAM policy). */
export const RESOURCE_MANAGER_API = GOOGLE_API_BASES.resourceManager;

/** Default per-request timeout of the leftover check. */
export const GCP_REQUEST_TIMEOUT_MS = 20_000;

/** How a GET that may succeed later is tried again. */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly attempts: number;
  /** The wait before the second attempt; it doubles for each one after, and up to as much again at random is added (jitter). */
  readonly firstDelayMs: number;
  /** The longest wait, a `Retry-After` included: an API asking for a longer one is not waited for. */
  readonly maxDelayMs: number;
}

/**
 * Truncated exponential backoff with jitter, as Google advises for its APIs
 * (https://cloud.google.com/iam/docs/retry-strategy, read 2026-12-02: wait 1 s
 * plus a random fraction, then 2, then 4 ...): 4 attempts, waits of 1-2 s,
 * 2-3 s and 4-5 s, a `Retry-After` of up to 30 s honoured.
 */
export const GOOGLE_RETRY: RetryPolicy = { attempts: 4, firstDelayMs: 1000, maxDelayMs: 30_000 };

/** Answers worth another attempt: too many requests, and the server errors Google names as transient. */
const RETRY_STATUSES = new Set([429, 500, 502, 503, 504]);
/** Connection errors worth another attempt: the connection was reset or closed under the request. */
const RETRY_ERROR_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/** A Compute Engine resource as the REST API returns it (only the fields the check reads). */
export interface GoogleItem {
  readonly name: string;
  readonly selfLink?: string;
  readonly network?: string;
  readonly [key: string]: unknown;
}

/**
 * The path of a resource URL from `projects/` on, so references compare equal
 * whatever host (`www.googleapis.com`, `compute.googleapis.com`) or API
 * version (`v1`, `beta`) the API wrote them with.
 */
export const resourcePath = (url: string | undefined) => (url ? url.replace(/^.*?(projects\/)/, '$1') : '');

export interface GoogleApiReaderOptions {
  /** OAuth 2 access token (Application Default Credentials, as Terraform's google provider uses). */
  readonly accessToken: string;
  /** Bound of each request (each page of each list). */
  readonly timeoutMs: number;
  /**
   * The quota project, sent as `x-goog-user-project` to the Google APIs (not
   * to tokeninfo or the cluster), as Google's client libraries and gcloud do
   * when Application Default Credentials name one.
   * @default - none
   */
  readonly quotaProject?: string;
  /** Base URLs of the APIs (tests serve them on loopback). @default GOOGLE_API_BASES */
  readonly bases?: Partial<GoogleApiBases>;
  /**
   * The cluster's Kubernetes API: its base URL (`https://<endpoint>`) and the
   * CA certificate (PEM) its serving certificate chains to.
   * @default - no Kubernetes calls
   */
  readonly kubernetes?: { readonly base: string; readonly caCertificate?: string };
  /** How GETs are tried again. @default GOOGLE_RETRY */
  readonly retry?: RetryPolicy;
  /** Waits between attempts (tests: no real waiting). @default setTimeout */
  readonly sleep?: (ms: number) => Promise<void>;
  /** A random number in [0, 1), for the jitter. @default Math.random */
  readonly random?: () => number;
}

/** How one attempt went: the parsed answer, or why not and whether another attempt may do better. */
type Attempt = { readonly value: Record<string, unknown> } | { readonly error: ApiError; readonly transient: boolean; readonly retryAfterMs?: number };

/** Options of one request. */
export interface CallOptions {
  /** Query parameters. */
  readonly query?: Readonly<Record<string, string>>;
  /** A JSON body (POST). */
  readonly body?: unknown;
}

/** Makes GoogleCalls with a bearer token, a bounded time per request, and all pages of a list. */
export class GoogleApiReader {
  private readonly bases: GoogleApiBases;

  constructor(private readonly options: GoogleApiReaderOptions) {
    this.bases = { ...GOOGLE_API_BASES, ...options.bases };
  }

  /** The URL of a call with its parameters and query. */
  url(call: GoogleCall, params: Readonly<Record<string, string>>, query: Readonly<Record<string, string>> = {}): string {
    const base = call.api === 'kubernetes' ? this.options.kubernetes?.base : this.bases[call.api];
    if (base === undefined) throw new Error(`${call.name}: no Kubernetes API endpoint given`);
    const path = callPath(call, params);
    const url = new URL(path ? `${base.replace(/\/$/, '')}/${path}` : base);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    return url.toString();
  }

  /** One call; any non-2xx answer (including 404: a list never answers 404 for "empty") is an {@link ApiError} with its status. */
  async call(call: GoogleCall, params: Readonly<Record<string, string>>, options: CallOptions = {}): Promise<Record<string, unknown>> {
    return this.send(call, this.url(call, params, options.query), options.body);
  }

  /** One request, tried again as {@link RetryPolicy} says while it is a GET whose failure may pass. */
  private async send(call: GoogleCall, url: string, body?: unknown): Promise<Record<string, unknown>> {
    const policy = this.options.retry ?? GOOGLE_RETRY;
    const attempts = call.verb === 'GET' ? Math.max(1, policy.attempts) : 1;
    for (let attempt = 1; ; attempt += 1) {
      const outcome = await this.attempt(call, url, body);
      if ('value' in outcome) return outcome.value;
      const tried = attempt === 1 ? '' : ` (${attempt} attempts)`;
      if (!outcome.transient || attempt >= attempts) throw new ApiError(`${outcome.error.message}${tried}`, outcome.error.status);
      let wait = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** (attempt - 1) + (this.options.random ?? Math.random)() * policy.firstDelayMs);
      if (outcome.retryAfterMs !== undefined) {
        if (outcome.retryAfterMs > policy.maxDelayMs) {
          const asked = `it asked to be tried again after ${Math.ceil(outcome.retryAfterMs / 1000)} s, longer than the ${policy.maxDelayMs / 1000} s hoplab waits`;
          throw new ApiError(`${outcome.error.message} (${attempt} attempt${attempt === 1 ? '' : 's'}; ${asked})`, outcome.error.status);
        }
        wait = outcome.retryAfterMs;
      }
      await (this.options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))))(wait);
    }
  }

  private async attempt(call: GoogleCall, url: string, body?: unknown): Promise<Attempt> {
    const verb = call.verb;
    const headers: Record<string, string> = { Authorization: `Bearer ${this.options.accessToken}`, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (this.options.quotaProject && QUOTA_PROJECT_APIS.has(call.api)) headers['x-goog-user-project'] = this.options.quotaProject;
    let answer: Answer;
    try {
      answer = await transport(
        verb,
        url,
        headers,
        body === undefined ? undefined : JSON.stringify(body),
        this.options.timeoutMs,
        call.api === 'kubernetes' ? this.options.kubernetes?.caCertificate : undefined,
      );
    } catch (error) {
      // fetch rejects with a DOMException (not always `instanceof Error` across realms): read its name and message.
      const { name, message, cause, code } = (error ?? {}) as { name?: string; message?: string; cause?: { code?: string }; code?: string };
      const timedOut = name === 'TimeoutError' || name === 'AbortError';
      const errorCode = cause?.code ?? code;
      const why = timedOut ? `no answer within ${this.options.timeoutMs} ms` : `${message ?? String(error)}${errorCode && !(message ?? '').includes(errorCode) ? ` (${errorCode})` : ''}`;
      // A request that timed out is not tried again: the check stays bounded by one timeout.
      return { error: new ApiError(`${verb} ${url} failed: ${why}`), transient: !timedOut && errorCode !== undefined && RETRY_ERROR_CODES.has(errorCode) };
    }
    if (answer.status < 200 || answer.status > 299) {
      return {
        error: new ApiError(`${verb} ${url} answered ${answer.status}${googleStatus(answer.text)}`, answer.status),
        transient: RETRY_STATUSES.has(answer.status),
        ...retryAfter(answer.retryAfter),
      };
    }
    try {
      return { value: (answer.text.trim() ? JSON.parse(answer.text) : {}) as Record<string, unknown> };
    } catch {
      return { error: new ApiError(`${verb} ${url} answered ${answer.status} with a body that is not JSON: ${answer.text.trim().slice(0, 200)}`, answer.status), transient: false };
    }
  }

  /** Every page of a list, following `nextPageToken`; `pageItems` picks the resources out of one page. */
  async pages(
    call: GoogleCall,
    params: Readonly<Record<string, string>>,
    pageItems: (page: Record<string, unknown>) => GoogleItem[],
    query: Readonly<Record<string, string>> = {},
  ): Promise<GoogleItem[]> {
    const items: GoogleItem[] = [];
    const seen = new Set<string>();
    const first = this.url(call, params, query);
    let pageToken: string | undefined;
    do {
      const page = await this.send(call, this.url(call, params, pageToken ? { ...query, pageToken } : query));
      items.push(...pageItems(page));
      pageToken = typeof page.nextPageToken === 'string' && page.nextPageToken ? page.nextPageToken : undefined;
      if (pageToken && seen.has(pageToken)) throw new ApiError(`GET ${first} returned the page token "${pageToken}" twice; stopping instead of looping`);
      if (pageToken) seen.add(pageToken);
    } while (pageToken);
    return items;
  }

  /** `GET .../global/<kind>` and the like: `{ items: [...], nextPageToken }`; no `items` is an empty page. */
  list(call: GoogleCall, params: Readonly<Record<string, string>>): Promise<GoogleItem[]> {
    return this.pages(call, params, (page) => (page.items as GoogleItem[] | undefined) ?? []);
  }

  /**
   * `GET .../aggregated/<kind>`: `{ items: { "<scope>": { <kind>: [...] } | { warning } }, nextPageToken, unreachables }`,
   * scopes such as `zones/us-central1-a`, `regions/us-central1` and `global`. A scope without resources carries only a
   * `warning` (NO_RESULTS_ON_PAGE). With `returnPartialSuccess=true` (Google's advice for aggregated lists) a scope that
   * could not be read is named in `unreachables`: a leftover check cannot call that clean, so it is an error.
   */
  aggregated(call: GoogleCall, params: Readonly<Record<string, string>>): Promise<GoogleItem[]> {
    const kind = call.path.split('/').pop() ?? '';
    const query = { returnPartialSuccess: 'true' };
    const url = this.url(call, params, query);
    return this.pages(
      call,
      params,
      (page) => {
        const unreachables = (page.unreachables as string[] | undefined) ?? [];
        if (unreachables.length > 0) throw new ApiError(`GET ${url} could not read ${unreachables.join(', ')}; run the check again`);
        const scopes = (page.items as Record<string, Record<string, unknown>> | undefined) ?? {};
        return Object.values(scopes).flatMap((scoped) => (scoped[kind] as GoogleItem[] | undefined) ?? []);
      },
      query,
    );
  }
}

/** An answer: its status, its body, and its `Retry-After` header if it had one. */
interface Answer {
  readonly status: number;
  readonly text: string;
  readonly retryAfter?: string;
}

/** A `Retry-After` header (seconds, or an HTTP date) as a wait; nothing when there is none or it cannot be read. */
function retryAfter(header: string | undefined, now = Date.now()): { retryAfterMs?: number } {
  if (header === undefined || header.trim() === '') return {};
  const text = header.trim();
  if (/^\d+$/.test(text)) return { retryAfterMs: Number(text) * 1000 };
  const at = Date.parse(text);
  return Number.isNaN(at) ? {} : { retryAfterMs: Math.max(0, at - now) };
}

/**
 * One HTTP exchange: `fetch` for the Google APIs; node's own client for a
 * cluster's API with its CA certificate (fetch cannot take a CA of its own).
 */
async function transport(verb: GoogleCall['verb'], url: string, headers: Record<string, string>, body: string | undefined, timeoutMs: number, caCertificate: string | undefined): Promise<Answer> {
  if (caCertificate === undefined) {
    const response = await fetch(url, { method: verb, headers, body, signal: AbortSignal.timeout(timeoutMs) });
    const after = response.headers.get('retry-after');
    return { status: response.status, text: await response.text(), ...(after === null ? {} : { retryAfter: after }) };
  }
  const answer = await httpsRequestText({ method: verb, url, headers, body, caCertificate, timeoutMs });
  const after = answer.headers['retry-after'];
  return { status: answer.status, text: answer.text, ...(typeof after === 'string' ? { retryAfter: after } : {}) };
}

/** A request that failed or answered what a check cannot trust; `status` is the HTTP status when there was an answer. */
export class ApiError extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * ` (PERMISSION_DENIED): Required 'compute.networks.list' permission ...` from a Google error body, ` (Forbidden): ...`
 * from a Kubernetes Status, or the body's start.
 */
function googleStatus(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { status?: string; message?: string }; kind?: string; reason?: string; message?: string };
    const error = parsed.error;
    if (error?.message) return `${error.status ? ` (${error.status})` : ''}: ${error.message}`;
    if (parsed.kind === 'Status' && parsed.message) return `${parsed.reason ? ` (${parsed.reason})` : ''}: ${parsed.message}`;
  } catch {
    // not JSON: show the text
  }
  return body.trim() ? `: ${body.trim().slice(0, 300)}` : '';
}
