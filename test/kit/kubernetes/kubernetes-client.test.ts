/**
 * The Kubernetes client against a loopback API over TLS (test/support/kubernetes-api.ts):
 * trusted through the cluster's CA only, the bearer token asked before each request,
 * JSON both ways, the API's warnings, and errors that say which request failed and why.
 */
import { AddressInfo, createServer as createTcpServer, Server } from 'node:net';
import { KubernetesApiError, KubernetesClient, warningTexts } from '../../../lib/kit/kubernetes/kubernetes-client';
import { HOST_TOKEN, KubernetesApi, LOOPBACK_CA, OTHER_CA, serveKubernetesApi } from '../../support/kubernetes-api';

let api: KubernetesApi | undefined;
let silent: Server | undefined;
afterEach(async () => {
  await api?.close();
  silent?.close();
  api = silent = undefined;
});

const SA = '/api/v1/namespaces/hoplab/serviceaccounts/hoplab-attendee';

describe('KubernetesClient', () => {
  test('GIVEN a cluster trusted through its CA WHEN an object is read THEN it is the recorded object, asked with the token the function made', async () => {
    api = await serveKubernetesApi({ objects: { '/api/v1/nodes': { kind: 'NodeList', items: [{ metadata: { name: 'n1' } }] } } });
    let asked = 0;
    const client = new KubernetesClient({ server: api.base, caCertificate: LOOPBACK_CA, token: async () => (asked++, HOST_TOKEN) });
    expect(await client.get('/api/v1/nodes', { labelSelector: 'a=b' })).toEqual({ kind: 'NodeList', items: [{ metadata: { name: 'n1' } }] });
    expect(asked).toBe(1);
    expect(api.requests.map((r) => [r.method, r.path, r.query.get('labelSelector'), r.user])).toEqual([['GET', '/api/v1/nodes', 'a=b', 'host']]);
  });

  test('GIVEN a TokenRequest over the server’s maximum lifetime WHEN created THEN the answer carries the token and the API’s warning that it was shortened', async () => {
    api = await serveKubernetesApi({ objects: { [SA]: { kind: 'ServiceAccount' } }, maxTokenSeconds: 86_400, now: () => new Date('2026-12-07T08:00:00Z') });
    const client = new KubernetesClient({ server: api.base, caCertificate: LOOPBACK_CA, token: HOST_TOKEN });
    const answer = await client.create<{ status: { token: string; expirationTimestamp: string } }>(`${SA}/token`, { kind: 'TokenRequest', spec: { expirationSeconds: 172_800 } });
    expect(answer.body.status).toEqual({ token: api.issued[0].token, expirationTimestamp: '2026-12-08T08:00:00Z' });
    expect(answer.warnings).toEqual(['requested expiration of 172800 seconds shortened to 86400 seconds']);
    expect(api.requests[0].body).toEqual({ kind: 'TokenRequest', spec: { expirationSeconds: 172_800 } });
  });

  test.each([
    [
      'refused by RBAC',
      { status: 403, reason: 'Forbidden', message: 'nodes is forbidden: User "x" cannot list resource "nodes"' },
      /^GET https:\/\/127\.0\.0\.1:\d+\/api\/v1\/nodes answered 403 \(Forbidden\): nodes is forbidden: User "x" cannot list resource "nodes"$/,
      403,
    ],
    ['absent', 'absent' as const, /^GET \S+ answered 404 \(NotFound\): /, 404],
  ])('GIVEN an answer %s WHEN read THEN a KubernetesApiError with the status, the reason and the API’s words', async (_what, answer, message, status) => {
    api = await serveKubernetesApi({ objects: { '/api/v1/nodes': () => answer } });
    const error = await new KubernetesClient({ server: api.base, caCertificate: LOOPBACK_CA, token: HOST_TOKEN }).get('/api/v1/nodes').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KubernetesApiError);
    expect((error as KubernetesApiError).message).toMatch(message);
    expect((error as KubernetesApiError).status).toBe(status);
  });

  test('GIVEN a token the cluster does not know WHEN read THEN 401 (Unauthorized)', async () => {
    api = await serveKubernetesApi();
    await expect(new KubernetesClient({ server: api.base, caCertificate: LOOPBACK_CA, token: 'someone-else' }).get('/api/v1/nodes')).rejects.toThrow(/answered 401 \(Unauthorized\)/);
  });

  test('GIVEN a server the cluster’s CA did not sign WHEN read THEN the connection is refused before any request is sent', async () => {
    api = await serveKubernetesApi();
    await expect(new KubernetesClient({ server: api.base, caCertificate: OTHER_CA, token: HOST_TOKEN }).get('/api/v1/nodes')).rejects.toThrow(/^GET \S+ failed: .*(certificate|self.signed)/);
    expect(api.requests).toEqual([]);
  });

  test('GIVEN nothing listening WHEN read THEN it fails at once saying the connection was refused', async () => {
    silent = createTcpServer();
    await new Promise<void>((resolve) => silent!.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    silent.close();
    await expect(new KubernetesClient({ server: `https://127.0.0.1:${port}`, caCertificate: LOOPBACK_CA, token: HOST_TOKEN }).get('/api/v1/nodes')).rejects.toThrow(/failed: .*ECONNREFUSED/);
  });

  test('GIVEN a cluster that never answers WHEN read THEN it fails after its bound, saying so', async () => {
    api = await serveKubernetesApi({ objects: { '/api/v1/nodes': () => 'hang' } });
    await expect(new KubernetesClient({ server: api.base, caCertificate: LOOPBACK_CA, token: HOST_TOKEN, timeoutMs: 200 }).get('/api/v1/nodes')).rejects.toThrow(/failed: no answer within 200 ms$/);
  });

  test('GIVEN a token function that fails WHEN read THEN nothing is sent and the error says there was no token', async () => {
    api = await serveKubernetesApi();
    const client = new KubernetesClient({ server: api.base, caCertificate: LOOPBACK_CA, token: () => Promise.reject(new Error('no Google credentials')) });
    await expect(client.get('/api/v1/nodes')).rejects.toThrow(/^GET \S+: no token to send \(no Google credentials\)$/);
    expect(api.requests).toEqual([]);
  });

  test('GIVEN Warning headers WHEN read THEN their quoted texts, escapes undone', () => {
    expect(warningTexts(['299 - "a \\"quoted\\" word"', '299 - "second", 299 - "third"'])).toEqual(['a "quoted" word', 'second', 'third']);
    expect(warningTexts(undefined)).toEqual([]);
  });
});
