import { once } from 'node:events';
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';

/**
 * A TCP relay from `listenPort` to `target`, which a fault test can cut: `cut()` drops every open
 * connection and stops listening, so new ones are refused, until `restore()` listens on the same
 * port again. The process at the far end keeps running; any client library goes through it alike.
 */
export class CuttableLink {
  private readonly open = new Set<Socket>();
  private server: Server | undefined;
  private readonly host: string;
  private readonly listenPort: number;
  readonly target: { host: string; port: number };
  /** The link's address, as a client's bootstrap list. */
  readonly brokers: string[];

  constructor(host: string, listenPort: number, target: { host: string; port: number }) {
    this.host = host;
    this.listenPort = listenPort;
    this.target = target;
    this.brokers = [`${host}:${listenPort}`];
  }

  /** Listens (again); resolves once connections are taken. */
  async restore(): Promise<void> {
    if (this.server) return;
    const server = createServer((client) => this.relay(client));
    server.listen(this.listenPort, this.host);
    await once(server, 'listening');
    this.server = server;
  }

  cut(): void {
    this.server?.close();
    this.server = undefined;
    for (const socket of this.open) socket.destroy();
  }

  private relay(client: Socket): void {
    const upstream = tcpConnect(this.target);
    for (const [socket, other] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      this.open.add(socket);
      socket.pipe(other);
      socket.on('error', () => other.destroy());
      socket.on('close', () => {
        this.open.delete(socket);
        other.destroy();
      });
    }
  }
}
