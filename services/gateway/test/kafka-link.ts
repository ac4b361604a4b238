import { connect, type Socket } from 'node:net';

/**
 * The network between an in-process gateway and the broker, under the test's control: every
 * connection kafkajs opens goes through `socketFactory`; `cut()` drops the open ones and makes new
 * ones fail (connection refused) until `restore()`. The shared broker itself keeps running for
 * everyone else on the machine.
 */
export class KafkaLink {
  private readonly sockets = new Set<Socket>();
  private down = false;

  readonly socketFactory = (options: { host: string; port: number; onConnect: () => void }): Socket => {
    const socket = this.down
      ? connect({ host: '127.0.0.1', port: 1 }, options.onConnect)
      : connect({ host: options.host, port: options.port }, options.onConnect);
    socket.setKeepAlive(true, 60_000);
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    return socket;
  };

  cut(): void {
    this.down = true;
    for (const socket of this.sockets) socket.destroy(new Error('the test cut the link to the broker'));
  }

  restore(): void {
    this.down = false;
  }
}
