import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP link between a service process and a real server (Redis, Postgres), under the test's
 * control: the service is pointed at `port` instead of the server's. `cut()` drops the open
 * connections and refuses new ones; `blackhole()` keeps accepting but never forwards a byte, as a
 * partitioned network does; `restore()` forwards again. The server itself keeps running for
 * everyone else on the machine.
 */
export class TcpLink {
  #mode: 'forward' | 'cut' | 'blackhole' = 'forward';
  readonly #sockets = new Set<Socket>();
  readonly #server: Server;

  private constructor(target: { host: string; port: number }) {
    this.#server = createServer((client) => {
      this.#track(client);
      if (this.#mode === 'cut') return void client.destroy();
      if (this.#mode === 'blackhole') return void client.on('data', () => {});
      const upstream = this.#track(connect(target));
      client.pipe(upstream).pipe(client);
      const close = () => {
        client.destroy();
        upstream.destroy();
      };
      client.once('close', close);
      upstream.once('close', close);
      client.on('error', close);
      upstream.on('error', close);
    });
  }

  /** Listens on a free loopback port and forwards to `target` (a `host:port` or a URL's parts). */
  static async open(target: { host: string; port: number }): Promise<TcpLink> {
    const link = new TcpLink(target);
    link.#server.listen(0, '127.0.0.1');
    await once(link.#server, 'listening');
    return link;
  }

  get port(): number {
    const address = this.#server.address();
    if (address === null || typeof address === 'string') throw new Error('the link is not listening');
    return address.port;
  }

  cut(): void {
    this.#mode = 'cut';
    this.#dropAll();
  }

  blackhole(): void {
    this.#mode = 'blackhole';
    this.#dropAll();
  }

  restore(): void {
    this.#mode = 'forward';
  }

  async close(): Promise<void> {
    this.#dropAll();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #track(socket: Socket): Socket {
    this.#sockets.add(socket);
    socket.once('close', () => this.#sockets.delete(socket));
    socket.on('error', () => {});
    return socket;
  }

  #dropAll(): void {
    for (const socket of this.#sockets) socket.destroy();
  }
}
