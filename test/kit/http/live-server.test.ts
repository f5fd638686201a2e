/**
 * The live page's server on loopback: the page with its CSP, the latest state,
 * server-sent events as states are published, the Host check that keeps other
 * sites' pages out (DNS rebinding), and the address parsing.
 */
import { request } from 'node:http';
import { isLoopbackHost, LiveServer, parseHostPort, startLiveServer } from '../../../lib/kit/http/live-server';

/** One GET (optionally with another Host header); the status, headers and body. */
function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The first `count` events of /events, as their data. */
function events(url: string, count: number, onOpen: () => void = () => undefined): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const seen: string[] = [];
    const req = request(`${url}events`, (res) => {
      let buffer = '';
      res.setEncoding('utf8');
      onOpen();
      res.on('data', (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const data = buffer
            .slice(0, end)
            .split('\n')
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6));
          buffer = buffer.slice(end + 2);
          if (data.length) seen.push(data.join('\n'));
          if (seen.length === count) {
            req.destroy();
            resolve(seen);
          }
        }
      });
    });
    req.on('error', (error) => (seen.length === count ? undefined : reject(error)));
    req.end();
  });
}

describe('startLiveServer', () => {
  let server: LiveServer;
  beforeAll(async () => {
    server = await startLiveServer({ host: '127.0.0.1', port: 0, page: '<!doctype html><p>room</p>', csp: "default-src 'none'; connect-src 'self'", initial: '{"n":0}' });
  });
  afterAll(() => server.close());

  test('GIVEN GET / THEN the page, with its Content-Security-Policy as a header', async () => {
    const page = await get(server.url);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe("default-src 'none'; connect-src 'self'");
    expect(page.body).toBe('<!doctype html><p>room</p>');
  });

  test('GIVEN states published WHEN a page listens to /events THEN it gets the latest first, then each new one; /state is the latest', async () => {
    expect((await get(`${server.url}state`)).body).toBe('{"n":0}');
    const received = events(server.url, 3, () => {
      server.publish('{"n":1}');
      server.publish('{"n":2}');
    });
    expect(await received).toEqual(['{"n":0}', '{"n":1}', '{"n":2}']);
    expect((await get(`${server.url}state`)).body).toBe('{"n":2}');
  });

  test.each([
    ['another Host (a site of its own pointed at 127.0.0.1)', { host: 'rebound.example' }, 'GET', '/', 403],
    ['a POST', {}, 'POST', '/', 405],
    ['another path', {}, 'GET', '/favicon.ico', 404],
  ])('GIVEN %s THEN %s', async (_, headers, method, path, status) => {
    expect((await get(`${server.url}${path.slice(1)}`, headers, method)).status).toBe(status);
  });

  test('GIVEN localhost as the Host THEN it is served (the same machine by its name)', async () => {
    const port = new URL(server.url).port;
    expect((await get(server.url, { host: `localhost:${port}` })).status).toBe(200);
  });

  test('GIVEN the port is taken WHEN a second server starts there THEN it is refused saying so', async () => {
    const port = Number(new URL(server.url).port);
    await expect(startLiveServer({ host: '127.0.0.1', port, page: '', csp: '' })).rejects.toThrow(`127.0.0.1:${port} is in use (another watch --serve?): choose another port with --serve-address`);
  });
});

describe('parseHostPort and isLoopbackHost', () => {
  test.each([
    ['127.0.0.1:8642', { host: '127.0.0.1', port: 8642 }, true],
    ['[::1]:0', { host: '::1', port: 0 }, true],
    ['localhost:8642', { host: 'localhost', port: 8642 }, true],
    ['127.1.2.3:80', { host: '127.1.2.3', port: 80 }, true],
    ['0.0.0.0:8642', { host: '0.0.0.0', port: 8642 }, false],
    ['192.168.1.20:8642', { host: '192.168.1.20', port: 8642 }, false],
    ['[::]:8642', { host: '::', port: 8642 }, false],
  ])('GIVEN %s THEN %j, loopback %p', (text, parsed, loopback) => {
    expect(parseHostPort(text)).toEqual(parsed);
    expect(isLoopbackHost(parsed.host)).toBe(loopback);
  });

  test.each([
    ['8642', '"8642" is not HOST:PORT (e.g. 127.0.0.1:8642, [::1]:8642, localhost:8642)'],
    ['127.0.0.1:70000', '"127.0.0.1:70000" is not HOST:PORT (e.g. 127.0.0.1:8642, [::1]:8642, localhost:8642)'],
    ['::1:8642', '"::1:8642" is not HOST:PORT (e.g. 127.0.0.1:8642, [::1]:8642, localhost:8642)'],
    ['[127.0.0.1]:8642', '"[127.0.0.1]:8642": only an IPv6 address goes in brackets'],
    ['room.example:8642', '"room.example:8642": room.example is not an IP address or localhost'],
  ])('GIVEN %s THEN it is refused: %s', (text, message) => {
    expect(() => parseHostPort(text)).toThrow(message);
  });
});
