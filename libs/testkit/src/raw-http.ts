import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The body's bytes as sent (de-chunked). */
  body: Buffer;
}

/**
 * Sends bytes exactly as given over one HTTP/1.1 connection and reads the answer until the server
 * closes it (send `Connection: close`). For requests an HTTP client would refuse to send: NUL in a
 * header, bad percent-encoding, raw bytes in the target, oversized heads.
 */
export async function rawHttp(url: string, request: Buffer | string): Promise<RawAnswer> {
  const [first] = await rawHttpAnswers(url, request);
  return first!;
}

/** As rawHttp, for pipelined requests: every answer the server sent before closing, in order. */
export function rawHttpAnswers(url: string, request: Buffer | string): Promise<RawAnswer[]> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    // Written without half-closing: Node's server drops a request whose client ended its side first.
    const socket = connect({ host: hostname, port: Number(port) }, () => socket.write(request));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A server that refuses a request may reset the connection after answering: keep what came.
    socket.on('error', (err) => (chunks.length > 0 ? undefined : reject(err)));
    socket.on('close', () => {
      try {
        resolve(parseAnswers(Buffer.concat(chunks)));
      } catch (err) {
        reject(err);
      }
    });
  });
}

/** Every HTTP/1.1 answer in bytes read from a connection, in order. */
export function parseAnswers(bytes: Buffer): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let rest = bytes;
  do {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1)
      throw new Error(`no HTTP answer: ${JSON.stringify(rest.toString('latin1').slice(0, 200))}`);
    const [statusLine, ...lines] = rest.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
    if (!status) throw new Error(`not an HTTP status line: ${statusLine}`);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const after = rest.subarray(end + 4);
    if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const { body, used } = dechunk(after);
      answers.push({ status, headers, body });
      rest = after.subarray(used);
    } else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      answers.push({ status, headers, body: after.subarray(0, length) });
      rest = after.subarray(length);
    } else {
      answers.push({ status, headers, body: after });
      rest = Buffer.alloc(0);
    }
  } while (rest.length > 0);
  return answers;
}

function dechunk(bytes: Buffer): { body: Buffer; used: number } {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    const size = Number.parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    at = lineEnd + 2;
    if (!size) return { body: Buffer.concat(parts), used: at + 2 };
    parts.push(bytes.subarray(at, at + size));
    at += size + 2;
  }
}
