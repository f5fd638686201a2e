/**
 * A reader for Google Cloud's REST list endpoints (Compute Engine, GKE): the
 * access token, bearer-token GETs with a bounded time each, every page, and
 * aggregated lists that fail rather than hide a scope they could not read.
 */
import { spawnSync } from 'node:child_process';

/** Compute Engine API base; tests point it at recorded responses served on loopback. */
export const COMPUTE_API = 'https://compute.googleapis.com/compute/v1';
/** GKE API base. */
export const CONTAINER_API = 'https://container.googleapis.com/v1';

/** IAM API (service accounts). */
export const IAM_API = 'https://iam.googleapis.com/v1';

/** Cloud Resource Manager API (project IAM policy). */
export const RESOURCE_MANAGER_API = 'https://cloudresourcemanager.googleapis.com/v1';

/** Default per-request timeout of the leftover check. */
export const GCP_REQUEST_TIMEOUT_MS = 20_000;

/** A Compute Engine resource as the REST API returns it (only the fields the check reads). */
export interface GoogleItem {
  readonly name: string;
  readonly selfLink?: string;
  readonly network?: string;
  readonly [key: string]: unknown;
}

/**
 * An access token for the Google APIs, from the identity Terraform's google
 * provider uses: `GOOGLE_OAUTH_ACCESS_TOKEN` if set (as the provider reads
 * it), else Application Default Credentials through
 * `gcloud auth application-default print-access-token` (what docs/getting-started.md's
 * `gcloud auth application-default login` sets up, and a service-account key
 * in GOOGLE_APPLICATION_CREDENTIALS), else the gcloud user login.
 * Returns undefined when none is available.
 */
export function gcpAccessToken(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.GOOGLE_OAUTH_ACCESS_TOKEN) return env.GOOGLE_OAUTH_ACCESS_TOKEN;
  for (const args of [
    ['auth', 'application-default', 'print-access-token'],
    ['auth', 'print-access-token'],
  ]) {
    const result = spawnSync('gcloud', args, { encoding: 'utf8', timeout: 20_000, env });
    if (result.status === 0 && result.stdout.trim()) return result.stdout.trim();
  }
  return undefined;
}

/**
 * The path of a resource URL from `projects/` on, so references compare equal
 * whatever host (`www.googleapis.com`, `compute.googleapis.com`) or API
 * version (`v1`, `beta`) the API wrote them with.
 */
export const resourcePath = (url: string | undefined) => (url ? url.replace(/^.*?(projects\/)/, '$1') : '');

/** Reads Compute Engine / GKE list endpoints with a bearer token, bounded time per request, and all pages. */
export class GoogleApiReader {
  constructor(private readonly accessToken: string, private readonly timeoutMs: number) {}

  /** GET one JSON document; any non-2xx answer (including 404: a list never answers 404 for "empty") is an error. */
  async get(url: string): Promise<Record<string, unknown>> {
    return this.request('GET', url);
  }

  /** POST a JSON body to a read-only method such as `:getIamPolicy`; errors as for {@link get}. */
  async post(url: string, body: unknown): Promise<Record<string, unknown>> {
    return this.request('POST', url, body);
  }

  private async request(method: 'GET' | 'POST', url: string, body?: unknown): Promise<Record<string, unknown>> {
    try {
      const response = await fetch(url, {
        method,
        headers: { Authorization: `Bearer ${this.accessToken}`, Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (!response.ok) {
        throw new ApiError(`${method} ${url} answered ${response.status}${googleStatus(await response.text())}`);
      }
      return (await response.json()) as Record<string, unknown>;
    } catch (error) {
      if (error instanceof ApiError) throw error;
      // fetch rejects with a DOMException (not always `instanceof Error` across realms): read its name and message.
      const { name, message, cause } = (error ?? {}) as { name?: string; message?: string; cause?: { code?: string } };
      const timedOut = name === 'TimeoutError' || name === 'AbortError';
      const why = timedOut ? `no answer within ${this.timeoutMs} ms` : `${message ?? String(error)}${cause?.code ? ` (${cause.code})` : ''}`;
      throw new ApiError(`${method} ${url} failed: ${why}`);
    }
  }

  /** Every page of a list, following `nextPageToken`; `pageItems` picks the resources out of one page. */
  async pages(url: string, pageItems: (page: Record<string, unknown>) => GoogleItem[]): Promise<GoogleItem[]> {
    const items: GoogleItem[] = [];
    const seen = new Set<string>();
    let pageToken: string | undefined;
    do {
      const pageUrl = new URL(url);
      if (pageToken) pageUrl.searchParams.set('pageToken', pageToken);
      const page = await this.get(pageUrl.toString());
      items.push(...pageItems(page));
      pageToken = typeof page.nextPageToken === 'string' && page.nextPageToken ? page.nextPageToken : undefined;
      if (pageToken && seen.has(pageToken)) throw new ApiError(`GET ${url} returned the page token "${pageToken}" twice; stopping instead of looping`);
      if (pageToken) seen.add(pageToken);
    } while (pageToken);
    return items;
  }

  /** `GET .../global/<kind>` and the like: `{ items: [...], nextPageToken }`. */
  list(url: string): Promise<GoogleItem[]> {
    return this.pages(url, (page) => (page.items as GoogleItem[] | undefined) ?? []);
  }

  /**
   * `GET .../aggregated/<kind>`: `{ items: { "<scope>": { <kind>: [...] } | { warning } }, nextPageToken, unreachables }`,
   * scopes such as `zones/us-central1-a`, `regions/us-central1` and `global`. A scope without resources carries only a
   * `warning` (NO_RESULTS_ON_PAGE). With `returnPartialSuccess=true` (Google's advice for aggregated lists) a scope that
   * could not be read is named in `unreachables`: a leftover check cannot call that clean, so it is an error.
   */
  aggregated(projectUrl: string, kind: string): Promise<GoogleItem[]> {
    const url = `${projectUrl}/aggregated/${kind}?returnPartialSuccess=true`;
    return this.pages(url, (page) => {
      const unreachables = (page.unreachables as string[] | undefined) ?? [];
      if (unreachables.length > 0) throw new ApiError(`GET ${url} could not read ${unreachables.join(', ')}; run the check again`);
      const scopes = (page.items as Record<string, Record<string, unknown>> | undefined) ?? {};
      return Object.values(scopes).flatMap((scoped) => (scoped[kind] as GoogleItem[] | undefined) ?? []);
    });
  }
}

/** A request that failed or answered what a check cannot trust. */
export class ApiError extends Error {}

/** ` (PERMISSION_DENIED): Required 'compute.networks.list' permission ...` from a Google error body, or its start. */
function googleStatus(body: string): string {
  try {
    const error = (JSON.parse(body) as { error?: { status?: string; message?: string } }).error;
    if (error?.message) return `${error.status ? ` (${error.status})` : ''}: ${error.message}`;
  } catch {
    // not JSON: show the text
  }
  return body.trim() ? `: ${body.trim().slice(0, 300)}` : '';
}
