/**
 * A Kubernetes API on loopback HTTPS, standing in for a cluster's (no
 * kube-apiserver runs here): its certificate is for 127.0.0.1 and chains to
 * {@link LOOPBACK_CA} (test/fixtures/tls), so a client trusts it only through
 * that CA, as it trusts an EKS or GKE cluster through the cluster's. It serves:
 * - recorded objects by path (`GET`), each a fixed object or an answer per
 *   call (an object, `absent`, an error Status, or `hang`: never answered);
 * - the discovery documents kubectl reads before `get` (core v1 and apps/v1),
 *   so the real /usr/bin/kubectl works against it;
 * - TokenRequest (`POST .../serviceaccounts/<sa>/token`) for service accounts
 *   it holds, capping the lifetime as kube-apiserver's
 *   `--service-account-max-token-expiration` does (with its Warning), and then
 *   accepting the tokens it issued as that service account.
 * Requests without a token it accepts get 401. Every request is recorded with
 * the user it was authenticated as.
 */
import { readFileSync } from 'node:fs';
import { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import { AddressInfo, createServer as createTcpServer } from 'node:net';
import { join } from 'node:path';
import { Json } from './synth';

const TLS = join(__dirname, '..', 'fixtures', 'tls');
/** The test "cluster CA" (PEM) that signed the loopback Kubernetes API's certificate. */
export const LOOPBACK_CA = readFileSync(join(TLS, 'loopback-ca.crt'), 'utf8');
/** A CA that signed nothing here. */
export const OTHER_CA = readFileSync(join(TLS, 'other-ca.crt'), 'utf8');
/** The host's token the server accepts by default (as the Google fixtures do). */
export const HOST_TOKEN = 'ya29.test-token-for-loopback';

/** An error answer: an HTTP status with a Kubernetes Status body. */
export interface StatusAnswer {
  readonly status: number;
  readonly reason: string;
  readonly message?: string;
}
/** What the server answers for a GET: an object, Kubernetes' 404 (`absent`), an error, or never (`hang`). */
export type KubeAnswer = Json | 'absent' | 'hang' | StatusAnswer;

/** One request as the server saw it. */
export interface KubeRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly authorization: string | undefined;
  /** Who the token was: `host`, `system:serviceaccount:<ns>:<sa>`, or what `authenticate` said; undefined when refused. */
  readonly user: string | undefined;
  /** The `x-goog-user-project` header (a Google quota project), if sent: a cluster's API must not get it. */
  readonly userProject: string | undefined;
  /** The JSON body of a POST. */
  readonly body?: Json;
}

/** A token the server issued through TokenRequest. */
export interface IssuedToken {
  readonly namespace: string;
  readonly serviceAccount: string;
  readonly token: string;
  readonly expirationSeconds: number;
  readonly expirationTimestamp: string;
}

export interface KubernetesApiOptions {
  /** GET answers by exact path (no query); a function gets how many times that path was asked before (0 first). @default - none */
  readonly objects?: Readonly<Record<string, Json | ((count: number, query: URLSearchParams) => KubeAnswer)>>;
  /** GET answers for paths `objects` does not name (patterns), or undefined for Kubernetes' 404. @default - none */
  readonly route?: (path: string, count: number, query: URLSearchParams) => KubeAnswer | undefined;
  /**
   * Who a request's `Authorization` header is, or undefined to refuse it (401). Tokens the server issued are
   * accepted before this is asked. @default - `Bearer HOST_TOKEN` is `host`
   */
  readonly authenticate?: (authorization: string | undefined) => string | undefined;
  /** kube-apiserver's `--service-account-max-token-expiration`, in seconds. @default - none: the requested lifetime */
  readonly maxTokenSeconds?: number;
  /** The server's clock, for issued tokens' expiry. @default - now */
  readonly now?: () => Date;
}

export interface KubernetesApi {
  /** `https://127.0.0.1:<port>` */
  readonly base: string;
  readonly requests: KubeRequest[];
  readonly issued: IssuedToken[];
  close(): Promise<void>;
}

const statusBody = (code: number, reason: string, message: string) => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });

const send = (res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}) => {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

const resource = (name: string, kind: string, namespaced: boolean, verbs = ['get', 'list', 'watch'], shortNames?: string[]) => ({
  name,
  singularName: kind.toLowerCase(),
  namespaced,
  kind,
  verbs,
  ...(shortNames ? { shortNames } : {}),
});

/** The legacy discovery documents kubectl falls back to when the server does not offer aggregated discovery. */
const DISCOVERY: Readonly<Record<string, Json>> = {
  '/api': { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1:443' }] },
  '/apis': {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: [{ name: 'apps', versions: [{ groupVersion: 'apps/v1', version: 'v1' }], preferredVersion: { groupVersion: 'apps/v1', version: 'v1' } }],
  },
  '/api/v1': {
    kind: 'APIResourceList',
    groupVersion: 'v1',
    resources: [
      resource('namespaces', 'Namespace', false, undefined, ['ns']),
      resource('nodes', 'Node', false, ['get', 'list', 'watch', 'patch'], ['no']),
      resource('pods', 'Pod', true, undefined, ['po']),
      resource('services', 'Service', true, ['get', 'list', 'watch', 'patch'], ['svc']),
      resource('serviceaccounts', 'ServiceAccount', true, undefined, ['sa']),
    ],
  },
  '/apis/apps/v1': { kind: 'APIResourceList', groupVersion: 'apps/v1', resources: [resource('deployments', 'Deployment', true, ['get', 'list', 'watch', 'patch'], ['deploy'])] },
};

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
  });

/** Serves `options` on an ephemeral loopback port over HTTPS. */
export async function serveKubernetesApi(options: KubernetesApiOptions = {}): Promise<KubernetesApi> {
  const requests: KubeRequest[] = [];
  const issued: IssuedToken[] = [];
  const asked = new Map<string, number>();
  const authenticate = options.authenticate ?? ((authorization) => (authorization === `Bearer ${HOST_TOKEN}` ? 'host' : undefined));
  const server = createServer({ key: readFileSync(join(TLS, 'loopback-server.key')), cert: readFileSync(join(TLS, 'loopback-server.crt')) }, (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'https://127.0.0.1');
      const method = req.method ?? 'GET';
      const text = method === 'POST' ? await readBody(req) : (req.resume(), '');
      const authorization = req.headers.authorization;
      const mine = issued.find((t) => authorization === `Bearer ${t.token}`);
      const user = mine ? `system:serviceaccount:${mine.namespace}:${mine.serviceAccount}` : authenticate(authorization);
      let body: Json | undefined;
      try {
        body = text ? (JSON.parse(text) as Json) : undefined;
      } catch {
        body = undefined;
      }
      requests.push({
        method,
        path: url.pathname,
        query: url.searchParams,
        authorization,
        user,
        userProject: req.headers['x-goog-user-project'] as string | undefined,
        ...(body === undefined ? {} : { body }),
      });
      if (user === undefined) return send(res, 401, statusBody(401, 'Unauthorized', 'Unauthorized'));
      const count = asked.get(`${method} ${url.pathname}`) ?? 0;
      asked.set(`${method} ${url.pathname}`, count + 1);

      const tokenRequest = /^\/api\/v1\/namespaces\/([^/]+)\/serviceaccounts\/([^/]+)\/token$/.exec(url.pathname);
      if (method === 'POST' && tokenRequest) {
        const [, namespace, serviceAccount] = tokenRequest.map(decodeURIComponent);
        if (!options.objects?.[`/api/v1/namespaces/${namespace}/serviceaccounts/${serviceAccount}`]) {
          return send(res, 404, statusBody(404, 'NotFound', `serviceaccounts "${serviceAccount}" not found`));
        }
        const asked = Number(body?.spec?.expirationSeconds ?? 3600);
        const headers: Record<string, string> = {};
        let seconds = asked;
        if (options.maxTokenSeconds !== undefined && asked > options.maxTokenSeconds) {
          // As kube-apiserver's TokenREST.Create: shortened to the maximum, with a warning (pkg/registry/core/serviceaccount/storage/token.go).
          headers.Warning = `299 - "requested expiration of ${asked} seconds shortened to ${options.maxTokenSeconds} seconds"`;
          seconds = options.maxTokenSeconds;
        }
        const now = options.now?.() ?? new Date();
        const expirationTimestamp = new Date(now.getTime() + seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
        const token = `eyJhbGciOiJSUzI1NiJ9.issued-${issued.length + 1}-${serviceAccount}.sig`;
        issued.push({ namespace, serviceAccount, token, expirationSeconds: seconds, expirationTimestamp });
        return send(
          res,
          201,
          {
            kind: 'TokenRequest',
            apiVersion: 'authentication.k8s.io/v1',
            metadata: { name: serviceAccount, namespace, creationTimestamp: now.toISOString().replace(/\.\d{3}Z$/, 'Z') },
            spec: { audiences: ['https://kubernetes.default.svc'], expirationSeconds: seconds, boundObjectRef: null },
            status: { token, expirationTimestamp },
          },
          headers,
        );
      }
      if (method !== 'GET') return send(res, 405, statusBody(405, 'MethodNotAllowed', `${method} is not served here`));
      const recorded = options.objects?.[url.pathname] ?? DISCOVERY[url.pathname];
      const answer = recorded === undefined ? options.route?.(url.pathname, count, url.searchParams) : typeof recorded === 'function' ? recorded(count, url.searchParams) : recorded;
      if (answer === undefined) return send(res, 404, statusBody(404, 'NotFound', 'the server could not find the requested resource'));
      if (answer === 'hang') return; // never answered; the socket is destroyed on close
      if (answer === 'absent') return send(res, 404, statusBody(404, 'NotFound', `${url.pathname.split('/').slice(-2).join(' "')}" not found`));
      if (typeof answer === 'object' && answer !== null && typeof answer.status === 'number' && typeof answer.reason === 'string' && answer.kind === undefined) {
        return send(res, answer.status, statusBody(answer.status, answer.reason, String(answer.message ?? answer.reason)));
      }
      return send(res, 200, answer);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `https://127.0.0.1:${port}`,
    requests,
    issued,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A cluster that serves CustomResourceDefinitions, and lists: `crd(name, count)` answers the `count`-th
 * look at CRD `name` (0 first); `lists` answers `GET <path>` with a List of those items (the kinds a
 * cluster serves); any other path is Kubernetes' 404.
 */
export function serveCrds(crd: (name: string, count: number) => KubeAnswer, lists: Readonly<Record<string, readonly Json[]>> = {}): Promise<KubernetesApi> {
  return serveKubernetesApi({
    objects: Object.fromEntries(Object.entries(lists).map(([path, items]) => [path, { kind: 'List', apiVersion: 'v1', metadata: { resourceVersion: '48213' }, items }])),
    route: (path, count) => {
      const match = /^\/apis\/apiextensions\.k8s\.io\/v1\/customresourcedefinitions\/([^/]+)$/.exec(path);
      return match ? crd(decodeURIComponent(match[1]), count) : undefined;
    },
  });
}

/** A CustomResourceDefinition as the API returns it, with the Established condition `established`. */
export function crdObject(name: string, established: boolean): Json {
  const [plural, ...group] = name.split('.');
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name, uid: '9d6a8e40-3c1f-4b0e-9b7a-2f5c6d1e0a11', resourceVersion: '4821', annotations: { 'gateway.networking.k8s.io/bundle-version': 'v1.3.0' } },
    spec: { group: group.join('.'), names: { plural, kind: plural[0].toUpperCase() + plural.slice(1, -1) }, scope: 'Namespaced', versions: [{ name: 'v1', served: true, storage: true }] },
    status: {
      conditions: [
        { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found', lastTransitionTime: '2026-05-12T09:14:02Z' },
        {
          type: 'Established',
          status: established ? 'True' : 'False',
          reason: established ? 'InitialNamesAccepted' : 'Installing',
          message: established ? 'the initial names have been accepted' : 'the CRD is being installed',
          lastTransitionTime: '2026-05-12T09:14:03Z',
        },
      ],
      acceptedNames: { plural, kind: plural[0].toUpperCase() + plural.slice(1, -1) },
      storedVersions: ['v1'],
    },
  };
}

/** An `https://127.0.0.1:PORT` where nothing listens: a cluster that refuses connections (the port was free a moment ago). */
export async function refusingApi(): Promise<string> {
  const closed = createTcpServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  return `https://127.0.0.1:${port}`;
}
