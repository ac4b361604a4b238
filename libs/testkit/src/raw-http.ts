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
export function rawHttp(url: string, request: Buffer | string): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: hostname, port: Number(port) }, () => socket.write(request));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A server that refuses a request may reset the connection after answering: keep what came.
    socket.on('error', (err) => (chunks.length > 0 ? undefined : reject(err)));
    socket.on('close', () => {
      try {
        resolve(parseAnswer(Buffer.concat(chunks)));
      } catch (err) {
        reject(err);
      }
    });
  });
}

function parseAnswer(bytes: Buffer): RawAnswer {
  const end = bytes.indexOf('\r\n\r\n');
  if (end === -1)
    throw new Error(`no HTTP answer: ${JSON.stringify(bytes.toString('latin1').slice(0, 200))}`);
  const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
  if (!status) throw new Error(`not an HTTP status line: ${statusLine}`);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = bytes.subarray(end + 4);
  const body = /chunked/i.test(headers['transfer-encoding'] ?? '') ? dechunk(rest) : rest;
  return { status, headers, body };
}

function dechunk(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    const size = Number.parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (!size) return Buffer.concat(parts);
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
