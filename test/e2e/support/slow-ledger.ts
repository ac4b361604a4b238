import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the ledger's HTTP API that holds every request until the test opens the gate, and
 * counts what reaches it: the gateway's LEDGER_URL points at it so that forwarded GET /v1/points
 * calls take as long as the test wants.
 */
export class SlowLedger {
  inFlight = 0;
  maxInFlight = 0;
  arrivals = 0;
  readonly server: Server;
  #open!: () => void;
  #gate!: Promise<void>;

  /**
   * `pace` says, by a request's URL, how much longer to hold it once the gate is open and whether
   * to drop its connection then instead of answering (an owning service failing mid-request).
   */
  constructor(options: { pace?: (url: string) => { delayMs: number; drop: boolean } } = {}) {
    this.hold();
    this.server = createServer((req, res) => {
      this.arrivals += 1;
      this.inFlight += 1;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      res.once('close', () => {
        this.inFlight -= 1;
      });
      req.resume();
      const pace = options.pace?.(req.url ?? '') ?? { delayMs: 0, drop: false };
      void this.#gate.then(async () => {
        if (pace.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, pace.delayMs));
        if (pace.drop) return void req.socket.destroy();
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ playerId: 'held', balance: 0 }));
      });
    });
  }

  async listen(): Promise<void> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
  }

  async close(): Promise<void> {
    this.open();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Requests arriving from now on wait until `open()`. */
  hold() {
    this.#gate = new Promise((resolve) => {
      this.#open = resolve;
    });
  }

  open() {
    this.#open();
  }

  reset() {
    this.hold();
    this.arrivals = 0;
    this.maxInFlight = this.inFlight;
  }

  get url() {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
}
