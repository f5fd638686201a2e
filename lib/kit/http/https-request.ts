/**
 * One HTTP(S) exchange with node's own client, for a server whose certificate
 * chains to a CA of its own (a Kubernetes API's cluster CA): `fetch` cannot
 * take a CA per request. Bounded by a timeout; the body is read as text.
 */
import { IncomingHttpHeaders } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface HttpsRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** @default - no body */
  readonly body?: string;
  /** PEM of the CA the server's certificate must chain to. @default - the system's roots */
  readonly caCertificate?: string;
  /** Bound of the whole exchange; past it the request is aborted with a `TimeoutError`. */
  readonly timeoutMs: number;
}

/** The answer: status, body, headers. */
export interface HttpsAnswer {
  readonly status: number;
  readonly text: string;
  readonly headers: IncomingHttpHeaders;
}

/** Sends `request` and resolves with the whole answer; rejects on a connection or TLS error, or at its timeout. */
export function httpsRequestText(request: HttpsRequest): Promise<HttpsAnswer> {
  const target = new URL(request.url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(target, { method: request.method, headers: request.headers, ca: request.caCertificate, signal: AbortSignal.timeout(request.timeoutMs) }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(request.body);
  });
}
