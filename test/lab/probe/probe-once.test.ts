/**
 * probeOnce, the single GET every probe sends (compare --probe, verify, watch):
 * what it sends, how each way a reply can go wrong is named, HTTPS with
 * certificate checks, and being stopped by its caller.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, IncomingMessage, Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { AddressInfo, createServer as createTcpServer, Server as TcpServer } from 'node:net';
import { probeOnce, STOPPED } from '../../../lib/lab/probe/probe';
import { deadUrl, echoBody } from '../../support/echo-servers';
import { fixture } from '../../support/fixtures';

const TIMEOUT_MS = 10_000;
const servers: (Server | TcpServer)[] = [];

function listen(server: Server | TcpServer, scheme = 'http'): Promise<URL> {
  servers.push(server);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(new URL(`${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}/`))));
}

afterAll(async () => {
  for (const server of servers) if ('closeAllConnections' in server) server.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

const ECHO = echoBody({ pod: 'echo-1', node: 'ip-10-0-1-23.ec2.internal', podIp: '10.0.1.57', clientAddress: '127.0.0.1', host: 'x' });

test('GIVEN an echo server WHEN probed THEN one GET with the path, query, Host and Connection: close is sent and the reply is parsed', async () => {
  let seen: IncomingMessage | undefined;
  const url = await listen(
    createHttpServer((req, res) => {
      seen = req;
      res.end(ECHO);
    }),
  );
  const sample = await probeOnce(new URL(`${url.href}path?x=1`), TIMEOUT_MS);
  expect(sample).toMatchObject({ ok: true, status: 200, reply: { pod: 'echo-1', node: 'ip-10-0-1-23.ec2.internal', clientAddress: '127.0.0.1' } });
  expect(seen).toMatchObject({ method: 'GET', url: '/path?x=1', headers: { host: url.host, connection: 'close', 'user-agent': 'hoplab-compare', accept: 'text/plain' } });
});

test.each([
  ['HTTP 503', (_req: IncomingMessage, res: import('node:http').ServerResponse) => res.writeHead(503).end('no healthy upstream'), 'HTTP 503'],
  ['a redirect is a reply', (_req: IncomingMessage, res: import('node:http').ServerResponse) => res.writeHead(302, { location: '/x' }).end(), undefined],
  ['a reply over the cap', (_req: IncomingMessage, res: import('node:http').ServerResponse) => res.end('x'.repeat(70 * 1024)), 'reply larger than 65536 bytes'],
  ['a reset before any reply', (req: IncomingMessage) => req.socket.resetAndDestroy(), 'connection reset'],
])('GIVEN %s WHEN probed THEN the sample says so', async (_what, handler, error) => {
  const url = await listen(createHttpServer(handler));
  const sample = await probeOnce(url, TIMEOUT_MS);
  if (error === undefined) expect(sample).toMatchObject({ ok: true, status: 302 });
  else expect(sample).toMatchObject({ ok: false, error });
});

test('GIVEN a server that does not speak HTTP WHEN probed THEN the error says it is not an HTTP reply', async () => {
  const url = await listen(createTcpServer((socket) => socket.resume().end('SSH-2.0-OpenSSH_9.6\r\n\r\n')));
  expect(await probeOnce(url, TIMEOUT_MS)).toMatchObject({ ok: false, error: 'not an HTTP reply' });
});

test('GIVEN nothing listening WHEN probed THEN connection refused', async () => {
  expect(await probeOnce(new URL(await deadUrl()), TIMEOUT_MS)).toMatchObject({ ok: false, error: 'connection refused' });
});

describe('https', () => {
  let url: URL;
  const ca = readFileSync(fixture('tls', 'localhost-cert.pem'));
  beforeAll(async () => {
    url = await listen(
      createHttpsServer({ key: readFileSync(fixture('tls', 'localhost-key.pem')), cert: ca }, (_req, res) => res.end(ECHO)),
      'https',
    );
  });

  test('GIVEN a certificate the prober trusts WHEN probed over https THEN the reply is read', async () => {
    expect(await probeOnce(url, TIMEOUT_MS, undefined, { ca })).toMatchObject({ ok: true, status: 200, reply: { pod: 'echo-1' } });
  });

  test('GIVEN a certificate the prober does not trust WHEN probed over https THEN the certificate is refused, by name', async () => {
    expect(await probeOnce(url, TIMEOUT_MS)).toMatchObject({ ok: false, error: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
  });
});

test('GIVEN a request in flight WHEN its caller stops THEN it ends at once as stopped, not as a timeout', async () => {
  const url = await listen(createHttpServer(() => undefined));
  const stop = new AbortController();
  const pending = probeOnce(url, 60_000, stop.signal);
  setTimeout(() => stop.abort(), 50);
  const sample = await pending;
  expect(sample).toMatchObject({ ok: false, error: STOPPED });
  expect(sample.ms).toBeLessThan(60_000);
});

test('GIVEN a caller that has already stopped WHEN probing THEN nothing is sent', async () => {
  let requests = 0;
  const url = await listen(
    createHttpServer((_req, res) => {
      requests += 1;
      res.end(ECHO);
    }),
  );
  const stop = new AbortController();
  stop.abort();
  expect(await probeOnce(url, TIMEOUT_MS, stop.signal)).toMatchObject({ ok: false, error: STOPPED });
  expect(requests).toBe(0);
});
