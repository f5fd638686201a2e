/**
 * A page that updates itself, served on one address with node:http: `GET /`
 * is the page, `GET /state` the latest state (JSON), and `GET /events` a
 * stream of server-sent events, each a new state as it is published (the
 * latest first, on connecting). Nothing else is served. The page's
 * Content-Security-Policy is sent as a header too.
 *
 * On a loopback address it answers only requests addressed to it by that
 * name (the Host header): a web page elsewhere cannot make the browser read
 * it through a name of its own that points at 127.0.0.1 (DNS rebinding).
 */
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo, isIP } from 'node:net';

/** Where to listen. */
export interface HostPort {
  /** An IP address or `localhost`. */
  readonly host: string;
  /** 0: a free port the system picks. */
  readonly port: number;
}

/** `HOST:PORT` (`127.0.0.1:8642`, `[::1]:8642`, `localhost:8642`, `0.0.0.0:8642`) as a {@link HostPort}; a bad one throws saying why. */
export function parseHostPort(text: string): HostPort {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(text.trim());
  const host = match ? match[1] ?? match[2] : undefined;
  const port = match ? Number(match[3]) : NaN;
  if (!match || host === undefined || !(port >= 0 && port <= 65535)) {
    throw new Error(`${JSON.stringify(text)} is not HOST:PORT (e.g. 127.0.0.1:8642, [::1]:8642, localhost:8642)`);
  }
  if (host !== 'localhost' && isIP(host) === 0) throw new Error(`${JSON.stringify(text)}: ${host} is not an IP address or localhost`);
  if (match[1] !== undefined && isIP(host) !== 6) throw new Error(`${JSON.stringify(text)}: only an IPv6 address goes in brackets`);
  return { host, port };
}

/** Whether `host` is this machine's loopback (127.0.0.0/8, ::1, localhost): nothing off the machine reaches it. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
}

export interface LiveServerOptions extends HostPort {
  /** The page (`GET /`). */
  readonly page: string;
  /** Its Content-Security-Policy, sent as a header. */
  readonly csp: string;
  /** The state before the first publish. @default null */
  readonly initial?: string;
}

export interface LiveServer {
  /** `http://host:port/`, the port as bound. */
  readonly url: string;
  /** Pages connected to the event stream now. */
  readonly clients: number;
  /** The new state (JSON text): sent to every connected page, and served from /state. */
  publish(json: string): void;
  /** Ends every stream and stops listening. */
  close(): Promise<void>;
}

/** Seconds between comments on the event stream, so that nothing on the way closes it as idle. */
const KEEP_ALIVE_MS = 15_000;

/** Starts serving; rejects when the address cannot be listened on (in use, not this machine's). */
export function startLiveServer(options: LiveServerOptions): Promise<LiveServer> {
  let latest = options.initial ?? 'null';
  const streams = new Set<ServerResponse>();
  const loopback = isLoopbackHost(options.host);
  let allowedHosts = new Set<string>();

  const send = (res: ServerResponse, status: number, type: string, body: string) => {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    res.end(body);
  };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    if (loopback && !allowedHosts.has((req.headers.host ?? '').toLowerCase())) {
      send(res, 403, 'text/plain; charset=utf-8', 'this page answers only as the address it was started on\n');
      return;
    }
    if (req.method !== 'GET') {
      res.setHeader('allow', 'GET');
      send(res, 405, 'text/plain; charset=utf-8', 'only GET\n');
      return;
    }
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/') {
      res.setHeader('content-security-policy', options.csp);
      send(res, 200, 'text/html; charset=utf-8', options.page);
    } else if (path === '/state') {
      send(res, 200, 'application/json; charset=utf-8', latest);
    } else if (path === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
      res.write(`retry: 2000\ndata: ${latest}\n\n`);
      streams.add(res);
      const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
      keepAlive.unref();
      req.on('close', () => {
        clearInterval(keepAlive);
        streams.delete(res);
      });
    } else {
      send(res, 404, 'text/plain; charset=utf-8', 'not found: the page is at /\n');
    }
  };

  const server = createServer(handle);
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const where = `${options.host.includes(':') ? `[${options.host}]` : options.host}:${options.port}`;
      reject(
        new Error(
          error.code === 'EADDRINUSE'
            ? `${where} is in use (another watch --serve?): choose another port with --serve-address`
            : error.code === 'EADDRNOTAVAIL'
            ? `${where} is not an address of this machine`
            : `cannot listen on ${where}: ${error.message}`,
        ),
      );
    });
    server.listen(options.port, options.host, () => {
      const { port } = server.address() as AddressInfo;
      const shown = options.host.includes(':') ? `[${options.host}]` : options.host;
      allowedHosts = new Set([`${shown}:${port}`.toLowerCase(), `localhost:${port}`]);
      resolve({
        url: `http://${shown}:${port}/`,
        get clients() {
          return streams.size;
        },
        publish(json: string) {
          latest = json;
          for (const res of streams) res.write(`data: ${json}\n\n`);
        },
        close: () =>
          new Promise<void>((done) => {
            for (const res of streams) res.end();
            streams.clear();
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
