import { once } from 'node:events';
import { createServer as createHttpServer, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Server, type Socket } from 'node:net';

/**
 * How a hostile receiver treats a delivery: `silent` accepts the connection and never answers (not
 * even reads HTTP), `slow` answers the status line one byte at a time, `trickling` sends 200 and then
 * a body one byte at a time, `huge` sends 200 and an endless body as fast as it can.
 */
export type Hostility = 'silent' | 'slow' | 'trickling' | 'huge';

/** Requests a group of hostile receivers hold open now, and the most they held at once. */
export class HeldTally {
  open = 0;
  most = 0;
  closed = 0;

  opened(): void {
    this.open += 1;
    this.most = Math.max(this.most, this.open);
  }

  close(): void {
    this.open -= 1;
    this.closed += 1;
  }
}

/** A real receiver on loopback that misbehaves as told; counts the requests it holds open. */
export class HostileReceiver {
  /** Requests open on this receiver now, and the most at once. */
  readonly own = new HeldTally();
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();

  readonly hostility: Hostility;
  private readonly server: Server;
  private readonly group: HeldTally;

  private constructor(hostility: Hostility, server: Server, group: HeldTally) {
    this.hostility = hostility;
    this.server = server;
    this.group = group;
  }

  static async start(hostility: Hostility, group: HeldTally): Promise<HostileReceiver> {
    const server = hostility === 'silent' ? createTcpServer() : createHttpServer();
    const receiver = new HostileReceiver(hostility, server, group);
    if (hostility === 'silent') server.on('connection', (socket: Socket) => receiver.hold(socket));
    else server.on('request', (req, res) => receiver.misbehave(req.socket, res));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** Drops every connection and stops listening. */
  async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private hold(socket: Socket): void {
    this.sockets.add(socket);
    this.own.opened();
    this.group.opened();
    socket.on('error', () => undefined);
    socket.once('close', () => {
      this.sockets.delete(socket);
      this.own.close();
      this.group.close();
    });
  }

  private misbehave(socket: Socket, res: ServerResponse): void {
    this.hold(socket);
    const every = (ms: number, tick: () => void) => {
      const timer = setInterval(() => {
        if (socket.destroyed) clearInterval(timer);
        else tick();
      }, ms);
      this.timers.add(timer);
    };
    switch (this.hostility) {
      case 'slow': {
        const status = 'HTTP/1.1 200 OK\r\n';
        let sent = 0;
        every(500, () => {
          if (sent < status.length) socket.write(status[sent++]!);
        });
        break;
      }
      case 'trickling':
        res.writeHead(200, { 'content-type': 'text/plain' });
        every(200, () => res.write('.'));
        break;
      case 'huge': {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        const chunk = Buffer.alloc(64 * 1024, 120);
        const pump = () => {
          while (!socket.destroyed && res.write(chunk)) {}
        };
        res.on('drain', pump);
        pump();
        break;
      }
    }
  }
}
