import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

/** What the proxy does with one request instead of passing its answer on. */
export type Fault =
  /** Answers this itself; the gateway never sees the request. */
  | { kind: 'answer'; status: number; body: unknown; headers?: Record<string, string> }
  /** Passes the request on, then loses the gateway's answer and answers 500 (a broken response). */
  | { kind: 'lose-answer' };

export interface SeenRequest {
  method: string;
  path: string;
  body: string;
}

/**
 * A real HTTP hop on loopback between the SDK and the gateway that can be told to fail the next
 * requests of a path: a network fault a test injects, not a stand-in for the gateway.
 */
export class FaultProxy {
  readonly seen: SeenRequest[] = [];
  readonly #faults = new Map<string, Fault[]>();
  readonly #server: Server;
  readonly #target: string;

  constructor(target: string) {
    this.#target = target;
    this.#server = createServer((req, res) => {
      void this.#handle(req).then(({ status, headers, body }) => {
        res.writeHead(status, headers);
        res.end(body);
      });
    });
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async listen(): Promise<void> {
    this.#server.listen(0, '127.0.0.1');
    await once(this.#server, 'listening');
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  /** The next requests to `path` meet these faults, one each, in order. */
  failNext(path: string, ...faults: Fault[]): void {
    this.#faults.set(path, [...(this.#faults.get(path) ?? []), ...faults]);
  }

  requestsTo(path: string): SeenRequest[] {
    return this.seen.filter((r) => r.path === path);
  }

  async #handle(req: IncomingMessage) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '/').split('?')[0]!;
    this.seen.push({ method: req.method ?? 'GET', path, body });
    const fault = this.#faults.get(path)?.shift();
    if (fault?.kind === 'answer') {
      return {
        status: fault.status,
        headers: { 'content-type': 'application/problem+json', ...fault.headers },
        body: JSON.stringify(fault.body),
      };
    }
    const answer = await fetch(`${this.#target}${req.url}`, {
      method: req.method ?? 'GET',
      headers: Object.fromEntries(
        Object.entries(req.headers).filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string' && !HOP_HEADERS.has(entry[0]),
        ),
      ),
      ...(body ? { body } : {}),
    });
    const text = await answer.text();
    if (fault?.kind === 'lose-answer') {
      return { status: 500, headers: { 'content-type': 'text/plain' }, body: 'lost' };
    }
    return {
      status: answer.status,
      headers: { 'content-type': answer.headers.get('content-type') ?? 'application/json' },
      body: text,
    };
  }
}
