import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { freePorts } from '@engage/devstack';

/** One request the receiver got, and what it answered (null: it never answered). */
export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: payloads of every event type
  payload: any;
  answered: number | null;
  at: number;
}

/** What to answer a request: a status, or `hold` to keep it open until released. */
export type Answer = number | 'hold';

/**
 * A webhook receiver: a real HTTP server on loopback that records every request and answers as the
 * test decides. It can go down and come back on the same port.
 */
export class Receiver {
  readonly received: Received[] = [];
  answer: (request: Received) => Answer = () => 200;
  private server: Server | undefined;
  private held: ServerResponse[] = [];
  private port = 0;

  static async start(): Promise<Receiver> {
    const receiver = new Receiver();
    await receiver.up();
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  async up(): Promise<void> {
    // A port below the kernel's ephemeral range: while the receiver is down, no outgoing connection
    // can be given it, so it comes back on the same port.
    if (this.port === 0) [this.port] = await freePorts(1);
    const server = createServer((req, res) => void this.handle(req, res));
    server.listen(this.port, '127.0.0.1');
    await once(server, 'listening');
    this.server = server;
  }

  /** Stops listening and drops every open connection: the gateway's attempts are refused. */
  async down(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    this.releaseHeld(503);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  /** Answers the requests held so far. */
  releaseHeld(status: number): void {
    for (const res of this.held.splice(0)) if (!res.destroyed) res.writeHead(status).end();
  }

  /** The answered-2xx requests' ids, in the order they were acknowledged. */
  acknowledged(): string[] {
    return this.received.filter((r) => r.answered !== null && r.answered < 300).map((r) => r.id);
  }

  /** Waits until `done` holds for what was received. */
  async until(done: (received: Received[]) => boolean, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done(this.received)) {
      if (Date.now() > deadline) {
        throw new Error(`receiver: condition not met; got ${JSON.stringify(this.received.map(summary))}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const request: Received = {
      id: String(req.headers['webhook-id']),
      timestamp: String(req.headers['webhook-timestamp']),
      signature: String(req.headers['webhook-signature']),
      body,
      payload: JSON.parse(body),
      answered: null,
      at: Date.now(),
    };
    this.received.push(request);
    const answer = this.answer(request);
    if (answer === 'hold') {
      this.held.push(res);
      return;
    }
    request.answered = answer;
    res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
  }
}

const summary = (r: Received) => ({ id: r.id, type: r.payload.type, answered: r.answered });
