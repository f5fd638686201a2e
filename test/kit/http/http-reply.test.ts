/**
 * ReplyParser: one HTTP/1.1 reply read from a connection's bytes, however the
 * bytes are split, framed by Content-Length, chunked coding or the end of the
 * connection; interim replies skipped; oversized and non-HTTP replies refused.
 */
import { ReplyParser, ReplyState } from '../../../lib/kit/http/http-reply';

/** Feeds `text` in pieces of `size` bytes; returns the last state, whether `end()` was needed, and the body if complete. */
function feed(text: string, size: number, maxBody = 1024, end = false): { state: ReplyState; body?: string } {
  const parser = new ReplyParser(maxBody);
  const bytes = Buffer.from(text, 'latin1');
  let state: ReplyState = 'more';
  for (let at = 0; at < bytes.length && state === 'more'; at += size) state = parser.push(bytes.subarray(at, at + size));
  if (end && state === 'more') state = parser.end();
  return state === 'complete' ? { state, body: parser.body().toString('latin1') } : { state };
}

const SIZES = [1, 2, 3, 7, 1000];

describe('ReplyParser', () => {
  test.each(SIZES)('GIVEN a Content-Length reply in pieces of %i bytes THEN it is complete with exactly that body, before the connection ends', (size) => {
    expect(feed('HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello', size)).toEqual({ state: 'complete', body: 'hello' });
  });

  test.each(SIZES)('GIVEN a chunked reply with an extension and a trailer in pieces of %i bytes THEN the chunks are joined', (size) => {
    const text = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n7\r\n, world\r\n0\r\nX-Trailer: 1\r\n\r\n';
    expect(feed(text, size)).toEqual({ state: 'complete', body: 'hello, world' });
  });

  test('GIVEN a chunked reply whose last chunk has not come THEN it wants more, and the end of the connection does not complete it', () => {
    expect(feed('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n', 1000, 1024, true)).toEqual({ state: 'more' });
  });

  test('GIVEN Transfer-Encoding and Content-Length both THEN chunked coding wins (RFC 9112)', () => {
    expect(feed('HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: gzip, chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n', 4)).toEqual({ state: 'complete', body: 'ok' });
  });

  test('GIVEN a reply without length or chunks THEN it is complete when the connection ends, not before', () => {
    expect(feed('HTTP/1.0 200 OK\r\n\r\nuntil close', 3)).toEqual({ state: 'more' });
    expect(feed('HTTP/1.0 200 OK\r\n\r\nuntil close', 3, 1024, true)).toEqual({ state: 'complete', body: 'until close' });
  });

  test('GIVEN a Content-Length reply cut short THEN the end of the connection leaves it incomplete', () => {
    expect(feed('HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nHostname: echo-1\n', 1000, 2048, true)).toEqual({ state: 'more' });
  });

  test('GIVEN 100 Continue before the reply THEN the interim reply is skipped and the status is the real one', () => {
    const parser = new ReplyParser(1024);
    expect(parser.push(Buffer.from('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 503 Service Unavailable\r\nContent-Length: 2\r\n\r\nno'))).toBe('complete');
    expect(parser.status).toBe(503);
    expect(parser.body().toString()).toBe('no');
  });

  test.each([204, 304])('GIVEN status %i THEN there is no body to wait for', (status) => {
    expect(feed(`HTTP/1.1 ${status} X\r\nContent-Length: 10\r\n\r\n`, 1000)).toEqual({ state: 'complete', body: '' });
  });

  test.each([
    ['a Content-Length above the cap', 'HTTP/1.1 200 OK\r\nContent-Length: 2000\r\n\r\n'],
    ['chunks adding up past the cap', `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n400\r\n${'a'.repeat(1024)}\r\n1\r\nb\r\n0\r\n\r\n`],
    ['a body until close past the cap', `HTTP/1.1 200 OK\r\n\r\n${'a'.repeat(1025)}`],
  ])('GIVEN %s THEN the reply is too large', (_what, text) => {
    expect(feed(text, 1000).state).toBe('too-large');
  });

  test.each([
    ['a status line that is not HTTP', 'SSH-2.0-OpenSSH_9.6\r\n\r\n'],
    ['a bad chunk size', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n'],
    ['101 Switching Protocols', 'HTTP/1.1 101 Switching Protocols\r\n\r\n'],
  ])('GIVEN %s THEN it is not an HTTP reply the probe can read', (_what, text) => {
    expect(feed(text, 1000).state).toBe('not-http');
  });

  test('GIVEN an incomplete reply THEN asking for its body is a programming error', () => {
    const parser = new ReplyParser(10);
    parser.push(Buffer.from('HTTP/1.1 200 OK\r\n'));
    expect(() => parser.body()).toThrow('ReplyParser: the reply is not complete');
    expect(parser.headRead).toBe(false);
  });
});
