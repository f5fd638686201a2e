/**
 * A small client for one Kubernetes API server: its URL, the CA its serving
 * certificate chains to, a bearer token (or a function that makes one: EKS
 * tokens last minutes), a bound on every request, JSON in and out, and errors
 * that say which request failed and why (no answer, a refused certificate, or
 * the API's own Status: `403 (Forbidden): nodes is forbidden: ...`). It knows
 * no lab: the paths are the caller's.
 */
import { httpsRequestText } from '../http/https-request';

/** Default bound of one request: an API server that is up answers well within it, even a busy one. */
export const KUBERNETES_REQUEST_TIMEOUT_MS = 20_000;

export interface KubernetesClientOptions {
  /** The API server's URL, `https://<host>[:<port>]`. */
  readonly server: string;
  /** PEM of the cluster's CA. @default - the system's roots (no managed cluster's API chains to them) */
  readonly caCertificate?: string;
  /** The bearer token, or what makes it (asked before every request, so it may renew itself). */
  readonly token: string | (() => Promise<string>);
  /** Bound of each request. @default KUBERNETES_REQUEST_TIMEOUT_MS */
  readonly timeoutMs?: number;
}

/** An answer with the `Warning` headers the API sent with it (for example a token's lifetime shortened). */
export interface KubernetesAnswer<T> {
  readonly body: T;
  readonly warnings: readonly string[];
}

/** A request that failed: no answer, or an answer that is not 2xx (`status`, and the Status's `reason`). */
export class KubernetesApiError extends Error {
  constructor(message: string, readonly status?: number, readonly reason?: string) {
    super(message);
    this.name = 'KubernetesApiError';
  }
}

/** The texts of `Warning: 299 - "text"` headers (RFC 7234's warn-code, agent `-`, the quoted text), as the API server sends them. */
export function warningTexts(header: string | string[] | undefined): string[] {
  const values = header === undefined ? [] : Array.isArray(header) ? header : [header];
  return values.flatMap((value) => [...value.matchAll(/\d{3} \S+ "((?:[^"\\]|\\.)*)"/g)].map((m) => m[1].replace(/\\(.)/g, '$1')));
}

/** ` (Forbidden): nodes is forbidden: ...` from a Kubernetes Status body, or the body's start. */
function statusWords(text: string): { words: string; reason?: string } {
  try {
    const parsed = JSON.parse(text) as { kind?: string; reason?: string; message?: string };
    if (parsed.kind === 'Status' && parsed.message) return { words: `${parsed.reason ? ` (${parsed.reason})` : ''}: ${parsed.message}`, ...(parsed.reason ? { reason: parsed.reason } : {}) };
  } catch {
    // not JSON: show the text
  }
  return { words: text.trim() ? `: ${text.trim().slice(0, 300)}` : '' };
}

/** Reads and writes one cluster's API with a bearer token, JSON in and out, each request bounded. */
export class KubernetesClient {
  constructor(private readonly options: KubernetesClientOptions) {}

  /** The server's URL. */
  get server(): string {
    return this.options.server;
  }

  /** `GET <path>?<query>`: the object or list. */
  async get<T = Record<string, unknown>>(path: string, query: Readonly<Record<string, string>> = {}): Promise<T> {
    return (await this.request<T>('GET', path, query)).body;
  }

  /** `POST <path>` with a JSON body (a create, or a subresource such as a TokenRequest): the answer and its warnings. */
  create<T = Record<string, unknown>>(path: string, body: unknown): Promise<KubernetesAnswer<T>> {
    return this.request<T>('POST', path, {}, body);
  }

  private async request<T>(method: 'GET' | 'POST', path: string, query: Readonly<Record<string, string>>, body?: unknown): Promise<KubernetesAnswer<T>> {
    const url = new URL(`${this.options.server.replace(/\/$/, '')}${path}`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    const timeoutMs = this.options.timeoutMs ?? KUBERNETES_REQUEST_TIMEOUT_MS;
    const what = `${method} ${url.toString()}`;
    let token: string;
    try {
      token = typeof this.options.token === 'string' ? this.options.token : await this.options.token();
    } catch (error) {
      throw new KubernetesApiError(`${what}: no token to send (${error instanceof Error ? error.message : String(error)})`);
    }
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let answer;
    try {
      answer = await httpsRequestText({ method, url: url.toString(), headers, body: body === undefined ? undefined : JSON.stringify(body), caCertificate: this.options.caCertificate, timeoutMs });
    } catch (error) {
      const { name, message, code } = (error ?? {}) as { name?: string; message?: string; code?: string };
      const why = name === 'TimeoutError' || name === 'AbortError' ? `no answer within ${timeoutMs} ms` : `${message ?? String(error)}${code && !(message ?? '').includes(code) ? ` (${code})` : ''}`;
      throw new KubernetesApiError(`${what} failed: ${why}`);
    }
    if (answer.status < 200 || answer.status > 299) {
      const { words, reason } = statusWords(answer.text);
      throw new KubernetesApiError(`${what} answered ${answer.status}${words}`, answer.status, reason);
    }
    try {
      return { body: (answer.text.trim() ? JSON.parse(answer.text) : {}) as T, warnings: warningTexts(answer.headers.warning) };
    } catch {
      throw new KubernetesApiError(`${what} answered ${answer.status} with a body that is not JSON: ${answer.text.trim().slice(0, 200)}`, answer.status);
    }
  }
}
