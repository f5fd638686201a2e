/**
 * Reads one HTTP/1.1 reply from the bytes of a connection, as a probe needs
 * it: the status and the body, framed by Content-Length, chunked transfer
 * coding, or the end of the connection. The probe sends its GET on a plain
 * socket and parses the reply with this instead of Node's HTTP client: per
 * request that costs a half to two thirds of the CPU (measured in docs/benchmarks.md), and
 * probing hundreds of exposures at once is bound by the prober's CPU.
 */

/** Where the reply stands after the bytes so far. */
export type ReplyState = 'more' | 'complete' | 'too-large' | 'not-http';

type Framing = { readonly kind: 'length'; readonly length: number } | { readonly kind: 'chunked' } | { readonly kind: 'close' } | { readonly kind: 'none' };

const HEAD_END = Buffer.from('\r\n\r\n');
/** The most header bytes read before the reply is called not HTTP. */
const MAX_HEAD = 64 * 1024;

export class ReplyParser {
  private buffer: Buffer = Buffer.alloc(0);
  private bodyStart = -1;
  private framing: Framing = { kind: 'close' };
  private decoded: Buffer | undefined;
  /** The status code, once the head is read. */
  status = 0;
  /** Bytes of the reply received so far. */
  received = 0;

  /** @param maxBody the largest body read; a longer one makes the reply `too-large`. */
  constructor(private readonly maxBody: number) {}

  /** Whether the head (status line and headers) has been read. */
  get headRead(): boolean {
    return this.bodyStart >= 0;
  }

  /** Adds bytes; says whether the reply is complete. */
  push(chunk: Buffer): ReplyState {
    this.received += chunk.length;
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    return this.check();
  }

  /** The connection ended: a reply framed by the end of the connection is complete now. */
  end(): ReplyState {
    if (this.decoded) return 'complete';
    if (this.headRead && this.framing.kind === 'close') {
      this.decoded = this.buffer.subarray(this.bodyStart);
      return 'complete';
    }
    return 'more';
  }

  /** The body of a complete reply. */
  body(): Buffer {
    if (!this.decoded) throw new Error('ReplyParser: the reply is not complete');
    return this.decoded;
  }

  private check(): ReplyState {
    if (this.decoded) return 'complete';
    while (!this.headRead) {
      const at = this.buffer.indexOf(HEAD_END);
      if (at < 0) return this.buffer.length > MAX_HEAD ? 'not-http' : 'more';
      const head = this.buffer.subarray(0, at).toString('latin1').split('\r\n');
      const status = /^HTTP\/1\.[01] (\d{3})(?: |$)/.exec(head[0]);
      if (!status) return 'not-http';
      const code = Number(status[1]);
      if (code >= 100 && code < 200) {
        // An interim reply (100 Continue, 103 Early Hints): the real one follows.
        if (code === 101) return 'not-http';
        this.buffer = this.buffer.subarray(at + HEAD_END.length);
        continue;
      }
      this.status = code;
      this.bodyStart = at + HEAD_END.length;
      this.framing = framingOf(code, head.slice(1));
      if (this.framing.kind === 'length' && this.framing.length > this.maxBody) return 'too-large';
    }
    const raw = this.buffer.subarray(this.bodyStart);
    switch (this.framing.kind) {
      case 'none':
        this.decoded = Buffer.alloc(0);
        return 'complete';
      case 'length':
        if (raw.length < this.framing.length) return 'more';
        this.decoded = raw.subarray(0, this.framing.length);
        return 'complete';
      case 'chunked': {
        const body = dechunk(raw, this.maxBody);
        if (body === 'too-large' || body === 'not-http') return body;
        if (body === undefined) return 'more';
        this.decoded = body;
        return 'complete';
      }
      default:
        return raw.length > this.maxBody ? 'too-large' : 'more';
    }
  }
}

function framingOf(status: number, headers: readonly string[]): Framing {
  if (status === 204 || status === 304) return { kind: 'none' };
  let length: number | undefined;
  let chunked = false;
  for (const line of headers) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line
      .slice(colon + 1)
      .trim()
      .toLowerCase();
    if (name === 'transfer-encoding') chunked ||= value.split(',').some((v) => v.trim() === 'chunked');
    else if (name === 'content-length' && /^\d+$/.test(value)) length = Number(value);
  }
  // Transfer-Encoding wins over Content-Length (RFC 9112, 6.3).
  if (chunked) return { kind: 'chunked' };
  if (length !== undefined) return { kind: 'length', length };
  return { kind: 'close' };
}

/** The body of chunked transfer coding, or `undefined` while the last chunk has not arrived. */
function dechunk(raw: Buffer, maxBody: number): Buffer | undefined | 'too-large' | 'not-http' {
  const parts: Buffer[] = [];
  let size = 0;
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const sizeText = raw.subarray(at, lineEnd).toString('latin1').split(';')[0].trim();
    if (!/^[0-9a-fA-F]+$/.test(sizeText)) return 'not-http';
    const length = parseInt(sizeText, 16);
    if (length === 0) {
      // The last chunk, then optional trailer lines and an empty line.
      // (From the size line's own CRLF: "0\r\n\r\n" ends right there.)
      if (raw.indexOf(HEAD_END, lineEnd) < 0) return undefined;
      return Buffer.concat(parts, size);
    }
    size += length;
    if (size > maxBody) return 'too-large';
    const dataEnd = lineEnd + 2 + length;
    if (raw.length < dataEnd + 2) return undefined;
    parts.push(raw.subarray(lineEnd + 2, dataEnd));
    at = dataEnd + 2;
  }
}
