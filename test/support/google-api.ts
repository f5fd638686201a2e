/**
 * Google's APIs and a GKE cluster's Kubernetes API, served on loopback:
 * - {@link serveGoogleFixtures}: Compute Engine, GKE, IAM and Resource Manager
 *   answers from test/lab/leftovers/fixtures/gcp (written in the documented
 *   formats by generate.ts there), as the leftover check and the firewall
 *   cleanup read them;
 * - a GKE cluster's own Kubernetes API is in kubernetes-api.ts.
 * Each records the requests it was sent (method, path, query, the headers that matter).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import { Json } from './synth';

export const GOOGLE_FIXTURES = join(__dirname, '..', 'lab', 'leftovers', 'fixtures', 'gcp');
export const FIXTURE_TOKEN = 'ya29.test-token-for-loopback';
export const FIXTURE_PROJECT = 'hoplab-demo';

export type Scenario = 'clean' | 'leftovers' | 'armored';

/** One reply: a status and a body (JSON), headers if any; or `reset`, the connection closed without an answer. */
export type Reply = { readonly status: number; readonly body: unknown; readonly headers?: Readonly<Record<string, string>> } | 'reset';
/** What the server answers for one request: one reply, `hang` (never), or replies in turn (the last one repeats). */
export type Answer = Reply | 'hang' | readonly Reply[];

/** One request as the server saw it. */
export interface Recorded {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly authorization: string | undefined;
  /** The `x-goog-user-project` header (quota project), if sent. */
  readonly userProject: string | undefined;
  /** The request's body (getIamPolicy's options), once it has been read. */
  body?: string;
}

export interface FixtureApi {
  readonly compute: string;
  readonly container: string;
  readonly iam: string;
  readonly resourceManager: string;
  readonly requests: Recorded[];
  close(): Promise<void>;
}

export const googleError = (code: number, status: string, message: string, reason: string) => ({
  error: { code, message, errors: [{ message, domain: 'global', reason }], status },
});

/** A fixture file of a scenario, parsed (to derive an altered answer from). */
export function fixture(scenario: Scenario, path: string): Json {
  return JSON.parse(readFileSync(join(GOOGLE_FIXTURES, scenario, `${path.replace(/^\//, '')}.json`), 'utf8'));
}

const send = (res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}) => {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8', ...headers });
  res.end(JSON.stringify(body));
};

/** The next reply of `answer` for a key asked `count` times before. */
function nth(answer: Exclude<Answer, 'hang'>, count: number): Reply {
  return Array.isArray(answer) ? answer[Math.min(count, answer.length - 1)] : (answer as Reply);
}

/**
 * Serves a scenario on an ephemeral loopback port: `GET /compute/v1/...`,
 * `/container/v1/...`, `/iam/v1/...` and `/crm/v1/...` map to
 * `<scenario>/<path>.json`, page `T` of a list to `<path>.page-T.json`, and a
 * DELETE to `<path>.DELETE.json` (the Operation it starts). Requests without
 * `Authorization: Bearer <FIXTURE_TOKEN>` get Google's 401; unknown paths
 * Google's 404. `answers` replace single requests, keyed by path (plus
 * `?pageToken=...` for a later page), or by `DELETE <path>`.
 */
export async function serveGoogleFixtures(scenario: Scenario, answers: Record<string, Answer> = {}): Promise<FixtureApi> {
  const requests: Recorded[] = [];
  const asked = new Map<string, number>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const pageToken = url.searchParams.get('pageToken');
    const method = req.method ?? 'GET';
    const recorded: Recorded = {
      method,
      path: url.pathname,
      query: url.searchParams,
      authorization: req.headers.authorization,
      userProject: req.headers['x-goog-user-project'] as string | undefined,
    };
    requests.push(recorded);
    // Keep any body (getIamPolicy's options) with the request; the answer does not wait for it.
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => (recorded.body = body));
    if (req.headers.authorization !== `Bearer ${FIXTURE_TOKEN}`) {
      return send(
        res,
        401,
        googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.', 'authError'),
      );
    }
    const key = (method === 'DELETE' ? 'DELETE ' : '') + url.pathname + (pageToken ? `?pageToken=${pageToken}` : '');
    const answer = answers[key];
    const count = asked.get(key) ?? 0;
    asked.set(key, count + 1);
    if (answer === 'hang') return; // never answers; the socket is destroyed on close
    if (answer) {
      const reply = nth(answer, count);
      if (reply === 'reset') return void req.socket.destroy();
      return send(res, reply.status, reply.body, reply.headers);
    }
    const suffix = method === 'DELETE' ? '.DELETE' : pageToken ? `.page-${pageToken}` : '';
    const file = normalize(join(GOOGLE_FIXTURES, scenario, decodeURIComponent(url.pathname) + suffix + '.json'));
    if (!file.startsWith(join(GOOGLE_FIXTURES, scenario)) || !existsSync(file)) {
      return send(res, 404, googleError(404, 'NOT_FOUND', `The resource '${url.pathname.replace(/^\/\w+\/v1\//, '')}' was not found`, 'notFound'));
    }
    return send(res, 200, JSON.parse(readFileSync(file, 'utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    compute: `http://127.0.0.1:${port}/compute/v1`,
    container: `http://127.0.0.1:${port}/container/v1`,
    iam: `http://127.0.0.1:${port}/iam/v1`,
    resourceManager: `http://127.0.0.1:${port}/crm/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const PREFLIGHT_TOKEN = 'ya29.preflight-loopback';
export const PREFLIGHT_PROJECT = 'my-lab-project';

/** What the preflight loopback API holds. */
export interface PreflightScenario {
  readonly enabled: string[];
  /** Of the permissions asked in one testIamPermissions call, those held. */
  readonly granted: (asked: string[]) => string[];
  readonly clusters: unknown[];
  /** Networks and service accounts (by email) that exist. */
  readonly existing: string[];
  readonly cpus: { readonly limit: number; readonly usage: number };
  /** Answer Service Usage with this error instead (status, Google error body). @default - the services */
  readonly servicesError?: { readonly status: number; readonly body: unknown };
  /** The project's IAM policy bindings (projects.getIamPolicy, version 3). @default - none */
  readonly bindings?: readonly PolicyBinding[];
  /** The project's custom roles by id, with their permissions (iam.projects.roles.get); others are 404. @default - none */
  readonly customRoles?: Readonly<Record<string, readonly string[]>>;
  /** Answer getIamPolicy with this error instead. @default - the policy */
  readonly iamPolicyError?: { readonly status: number; readonly body: unknown };
  /**
   * The project's folders and organization, bottom up, as projects.getAncestry lists them after the project itself.
   * @default - none: a project outside any organization
   */
  readonly ancestors?: readonly { readonly type: 'folder' | 'organization'; readonly id: string }[];
  /** Answer projects.getAncestry with this error instead. @default - the ancestry */
  readonly ancestryError?: { readonly status: number; readonly body: unknown };
  /**
   * Each ancestor's IAM policy bindings (Resource Manager v3 folders.getIamPolicy and organizations.getIamPolicy), keyed
   * `folders/<id>` or `organizations/<id>`. An ancestor without an entry answers 403, as Google answers a caller without
   * resourcemanager.folders.getIamPolicy (or organizations.getIamPolicy) there. @default - none
   */
  readonly ancestorBindings?: Readonly<Record<string, readonly PolicyBinding[]>>;
  /** Predefined roles (`roles/...`) with their permissions (IAM roles.get); others are 404. @default PREDEFINED_ROLES */
  readonly predefinedRoles?: Readonly<Record<string, readonly string[]>>;
  /** Organizations' custom roles (`organizations/<id>/roles/<role>`) with their permissions (IAM organizations.roles.get); others are 404. @default - none */
  readonly organizationRoles?: Readonly<Record<string, readonly string[]>>;
  /**
   * Compute Engine quotas: each region's (regions.get answers for these regions only, with zones `-a`, `-b`,
   * `-c`) and the project's (projects.get). @default us-central1 (zones a, b, c, f) and the quotas below
   */
  readonly quotas?: { readonly regions: Readonly<Record<string, readonly GoogleQuota[]>>; readonly project: readonly GoogleQuota[] };
  /** The project's Cloud Quotas quota preferences; POST and PATCH change this list. @default none */
  readonly preferences?: Json[];
  /** Compute Engine's quotas as Cloud Quotas lists them (quotaInfos.list, served in two pages), or the error it answers with. @default none */
  readonly quotaInfos?: Json[] | { readonly status: number; readonly body: unknown };
}

/** A binding of an IAM policy (version 3: with a condition, if any). */
export interface PolicyBinding {
  readonly role: string;
  readonly members: readonly string[];
  readonly condition?: { readonly title: string; readonly expression: string };
}

/**
 * A policy as getIamPolicy answers it for the version asked. Version 3 returns conditional bindings as they are;
 * any other (here: none too) returns each without its condition and with `_withcond_<hash>` appended to its role
 * (https://cloud.google.com/iam/docs/troubleshooting-withcond, read 2026-12-07; the hash here is made up, 20 hex
 * digits as in that page's example). A policy with no conditional binding is version 1 either way.
 */
function policyAnswer(bindings: readonly PolicyBinding[], requested: number | undefined): Json {
  const conditional = bindings.some((b) => b.condition);
  const shown =
    requested === 3
      ? bindings
      : bindings.map((b) => (b.condition ? { role: `${b.role}_withcond_${createHash('sha256').update(JSON.stringify(b.condition)).digest('hex').slice(0, 20)}`, members: b.members } : b));
  return { version: conditional && requested === 3 ? 3 : 1, etag: 'BwYq7bWTfxE=', bindings: shown };
}

/**
 * Predefined roles as IAM's roles.get answers them, each with a subset of its real `includedPermissions`:
 * its Kubernetes API permissions that matter here and a few others (the definitions as
 * github.com/darkbitio/gcp-iam-role-permissions recorded them from roles.get, commit 8ab2a6f, 2026-08-22, read 2026-12-07).
 * roles/composer.worker ("Worker access to Composer. Intended for service accounts.") is outside `roles/container.*` and holds
 * container.pods.exec; roles/container.clusterViewer is whole.
 */
export const PREDEFINED_ROLES: Readonly<Record<string, readonly string[]>> = {
  'roles/container.clusterViewer': ['container.clusters.connect', 'container.clusters.get', 'container.clusters.list', 'resourcemanager.projects.get', 'resourcemanager.projects.list'],
  'roles/compute.viewer': ['compute.instances.get', 'compute.instances.list', 'compute.networks.get', 'compute.networks.list'],
  'roles/viewer': ['compute.instances.list', 'container.clusters.get', 'container.clusters.list', 'container.deployments.get', 'container.pods.get', 'container.pods.list'],
  'roles/container.viewer': ['container.clusters.get', 'container.clusters.list', 'container.deployments.get', 'container.pods.get', 'container.pods.list'],
  'roles/editor': ['compute.instances.list', 'container.clusters.get', 'container.deployments.update', 'container.pods.create', 'container.pods.exec', 'container.pods.list', 'container.secrets.get'],
  'roles/container.developer': ['container.clusters.get', 'container.deployments.update', 'container.pods.create', 'container.pods.exec', 'container.pods.list', 'container.secrets.get'],
  'roles/composer.worker': ['artifactregistry.files.get', 'container.clusters.get', 'container.pods.exec', 'container.pods.get', 'container.pods.list', 'container.secrets.get'],
};

/** A quota as regions.get and projects.get list it. */
export interface GoogleQuota {
  readonly metric: string;
  readonly limit: number;
  readonly usage: number;
}

/** The Google API bases that reach {@link servePreflightApi}'s server at `base`, as preflight takes them. */
export function preflightApiBases(base: string) {
  return {
    compute: `${base}/compute/v1`,
    container: `${base}/container/v1`,
    serviceUsage: `${base}/serviceusage/v1`,
    resourceManager: `${base}/crm/v1`,
    resourceManagerV3: `${base}/crm/v3`,
    iam: `${base}/iam/v1`,
    cloudQuotas: `${base}/cloudquotas/v1`,
    tokenInfo: `${base}/tokeninfo`,
  };
}

export interface PreflightApi {
  readonly base: string;
  /** The permissions of each testIamPermissions call. */
  readonly posts: string[][];
  /** The bodies of the Cloud Quotas POST and PATCH requests, with their query. */
  readonly quotaWrites: { readonly method: string; readonly query: string; readonly body: Json }[];
  readonly requests: Recorded[];
  close(): Promise<void>;
}

/**
 * The APIs GCP preflight calls, on loopback, in their documented formats:
 * OAuth2 tokeninfo, Service Usage services.list (two pages),
 * projects.testIamPermissions, Compute Engine regions.get and projects.get
 * (quotas), GKE clusters.list, networks.get and IAM serviceAccounts.get,
 * projects.getIamPolicy and IAM projects.roles.get.
 */
export async function servePreflightApi(s: PreflightScenario): Promise<PreflightApi> {
  const posts: string[][] = [];
  const requests: Recorded[] = [];
  const quotaWrites: { method: string; query: string; body: Json }[] = [];
  const preferences = s.preferences ?? [];
  const project = PREFLIGHT_PROJECT;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push({
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      authorization: req.headers.authorization,
      userProject: req.headers['x-goog-user-project'] as string | undefined,
    });
    const notFound = () => send(res, 404, { error: { code: 404, status: 'NOT_FOUND', message: `${url.pathname} not found` } });
    if (url.pathname === '/tokeninfo') return send(res, 200, { azp: '32555940559.apps.googleusercontent.com', email: 'host@example.com', expires_in: '3599' });
    if (req.headers.authorization !== `Bearer ${PREFLIGHT_TOKEN}`)
      return send(res, 401, { error: { code: 401, status: 'UNAUTHENTICATED', message: 'Request had invalid authentication credentials.' } });
    if (url.pathname === `/serviceusage/v1/projects/${project}/services`) {
      if (s.servicesError) return send(res, s.servicesError.status, s.servicesError.body);
      // Two pages, as services.list pages.
      const names = s.enabled.map((n) => ({ name: `projects/123/services/${n}`, config: { name: n }, state: 'ENABLED' }));
      if (url.searchParams.get('pageToken') === 'p2') return send(res, 200, { services: names.slice(1) });
      return send(res, 200, { services: names.slice(0, 1), nextPageToken: 'p2' });
    }
    if (req.method === 'POST' && url.pathname === `/crm/v1/projects/${project}:testIamPermissions`) {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const asked = (JSON.parse(body) as { permissions: string[] }).permissions;
        posts.push(asked);
        send(res, 200, s.granted(asked).length ? { permissions: s.granted(asked) } : {});
      });
      return;
    }
    if (req.method === 'POST' && url.pathname === `/crm/v1/projects/${project}:getIamPolicy`) {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const asked = JSON.parse(body || '{}') as { options?: { requestedPolicyVersion?: number } };
        if (s.iamPolicyError) return send(res, s.iamPolicyError.status, s.iamPolicyError.body);
        send(res, 200, policyAnswer(s.bindings ?? [], asked.options?.requestedPolicyVersion));
      });
      return;
    }
    if (req.method === 'POST' && url.pathname === `/crm/v1/projects/${project}:getAncestry`) {
      req.resume();
      if (s.ancestryError) return send(res, s.ancestryError.status, s.ancestryError.body);
      const ancestor = [{ type: 'project', id: project }, ...(s.ancestors ?? [])].map((resourceId) => ({ resourceId }));
      return send(res, 200, { ancestor });
    }
    const ancestorPolicy = /^\/crm\/v3\/((?:folders|organizations)\/[^/:]+):getIamPolicy$/.exec(url.pathname);
    if (req.method === 'POST' && ancestorPolicy) {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const asked = JSON.parse(body || '{}') as { options?: { requestedPolicyVersion?: number } };
        const held = s.ancestorBindings?.[ancestorPolicy[1]];
        if (!held) return send(res, 403, { error: { code: 403, status: 'PERMISSION_DENIED', message: 'The caller does not have permission' } });
        send(res, 200, policyAnswer(held, asked.options?.requestedPolicyVersion));
      });
      return;
    }
    const predefined = /^\/iam\/v1\/roles\/([^/]+)$/.exec(url.pathname);
    if (predefined) {
      const name = `roles/${decodeURIComponent(predefined[1])}`;
      const permissions = (s.predefinedRoles ?? PREDEFINED_ROLES)[name];
      return permissions ? send(res, 200, { name, title: name, includedPermissions: permissions, stage: 'GA', etag: 'AA==' }) : notFound();
    }
    const orgRole = /^\/iam\/v1\/(organizations\/[^/]+\/roles\/[^/]+)$/.exec(url.pathname);
    if (orgRole) {
      const permissions = s.organizationRoles?.[decodeURIComponent(orgRole[1])];
      return permissions ? send(res, 200, { name: orgRole[1], title: orgRole[1], includedPermissions: permissions, stage: 'GA', etag: 'BwYq7bWTfxE=' }) : notFound();
    }
    const role = new RegExp(`^/iam/v1/projects/${project}/roles/([^/]+)$`).exec(url.pathname);
    if (role) {
      const permissions = s.customRoles?.[decodeURIComponent(role[1])];
      return permissions ? send(res, 200, { name: `projects/${project}/roles/${role[1]}`, title: role[1], includedPermissions: permissions, stage: 'GA', etag: 'BwYq7bWTfxE=' }) : notFound();
    }
    const region = new RegExp(`^/compute/v1/projects/${project}/regions/([^/]+)$`).exec(url.pathname);
    if (region && s.quotas) {
      const quotas = s.quotas.regions[region[1]];
      if (!quotas) return notFound();
      const zones = ['a', 'b', 'c'].map((z) => `https://www.googleapis.com/compute/v1/projects/${project}/zones/${region[1]}-${z}`);
      return send(res, 200, { kind: 'compute#region', name: region[1], status: 'UP', zones, quotas });
    }
    if (url.pathname === `/compute/v1/projects/${project}/regions/us-central1`) {
      return send(res, 200, {
        kind: 'compute#region',
        name: 'us-central1',
        status: 'UP',
        zones: ['a', 'b', 'c', 'f'].map((z) => `https://www.googleapis.com/compute/v1/projects/${project}/zones/us-central1-${z}`),
        quotas: [
          { metric: 'CPUS', ...s.cpus },
          { metric: 'IN_USE_ADDRESSES', limit: 8, usage: 1 },
          { metric: 'SSD_TOTAL_GB', limit: 500, usage: 0 },
          { metric: 'EXTERNAL_NETWORK_LB_FORWARDING_RULES', limit: 15, usage: 0 },
          { metric: 'REGIONAL_EXTERNAL_NETWORK_LB_BACKEND_SERVICES', limit: 50, usage: 0 },
        ],
      });
    }
    if (url.pathname === `/compute/v1/projects/${project}`) {
      return send(res, 200, {
        kind: 'compute#project',
        name: project,
        quotas: s.quotas?.project ?? [
          { metric: 'BACKEND_SERVICES', limit: 9, usage: 2 },
          { metric: 'FORWARDING_RULES', limit: 15, usage: 0 },
          { metric: 'GLOBAL_EXTERNAL_MANAGED_FORWARDING_RULES', limit: 15, usage: 0 },
          { metric: 'GLOBAL_EXTERNAL_MANAGED_BACKEND_SERVICES', limit: 50, usage: 2 },
          { metric: 'CPUS_ALL_REGIONS', limit: 32, usage: 4 },
          { metric: 'NETWORKS', limit: 5, usage: 1 },
        ],
      });
    }
    // Cloud Quotas: Compute Engine's quotas (two pages, as quotaInfos.list pages).
    if (req.method === 'GET' && url.pathname === `/cloudquotas/v1/projects/${project}/locations/global/services/compute.googleapis.com/quotaInfos`) {
      const infos = s.quotaInfos ?? [];
      if (!Array.isArray(infos)) return send(res, infos.status, infos.body);
      const half = Math.ceil(infos.length / 2);
      if (url.searchParams.get('pageToken') === 'infos-2') return send(res, 200, { quotaInfos: infos.slice(half) });
      return send(res, 200, { quotaInfos: infos.slice(0, half), ...(infos.length > half ? { nextPageToken: 'infos-2' } : {}) });
    }
    // Cloud Quotas: the project's quota preferences (list, get, create, patch), in the API's formats.
    const preferencesPath = `/cloudquotas/v1/projects/${project}/locations/global/quotaPreferences`;
    if (url.pathname === preferencesPath || url.pathname.startsWith(`${preferencesPath}/`)) {
      const id = url.pathname.slice(preferencesPath.length + 1);
      const named = (p: Json) => String(p.name).split('/').pop() === id;
      if (req.method === 'GET' && !id) return send(res, 200, preferences.length > 0 ? { quotaPreferences: preferences } : {});
      if (req.method === 'GET') {
        const found = preferences.find(named);
        return found ? send(res, 200, found) : notFound();
      }
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const asked = JSON.parse(body || '{}') as Json;
        quotaWrites.push({ method: req.method ?? '', query: url.search, body: asked });
        const config = asked.quotaConfig as Json;
        if (req.method === 'POST') {
          const name = `projects/123456789012/locations/global/quotaPreferences/${url.searchParams.get('quotaPreferenceId') ?? 'generated'}`;
          if (preferences.some((p) => p.quotaId === asked.quotaId && JSON.stringify(p.dimensions ?? {}) === JSON.stringify(asked.dimensions ?? {}))) {
            return send(res, 409, { error: { code: 409, status: 'ALREADY_EXISTS', message: 'a quota preference for this quota and dimensions exists' } });
          }
          const created = { ...asked, name, etag: 'etag-1', reconciling: true, quotaConfig: { ...config, grantedValue: '5', requestOrigin: 'ORIGIN_UNSPECIFIED' } };
          preferences.push(created);
          return send(res, 200, created);
        }
        const found = preferences.find(named);
        if (!found) return notFound();
        Object.assign(found, { reconciling: true, etag: 'etag-2', quotaConfig: { ...(found.quotaConfig as Json), ...config } });
        return send(res, 200, found);
      });
      return;
    }
    if (url.pathname === `/container/v1/projects/${project}/locations/-/clusters`) return send(res, 200, { clusters: s.clusters });
    const resource = url.pathname.split('/').pop() ?? '';
    if (url.pathname.startsWith(`/compute/v1/projects/${project}/global/networks/`) || url.pathname.startsWith(`/iam/v1/projects/${project}/serviceAccounts/`)) {
      return s.existing.includes(decodeURIComponent(resource)) ? send(res, 200, { name: resource }) : notFound();
    }
    return notFound();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    posts,
    quotaWrites,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
