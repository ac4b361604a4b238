import type { Dispatcher } from 'undici';
import { Pool } from 'undici';

/**
 * Requests (mostly GETs) whose answer only needs to be 200, through undici's dispatch API: no
 * response stream and no body object per request, one promise, so the bench's own CPU per request
 * stays small beside the service's on a machine they share. The body is kept only to explain an
 * error.
 */
export class GetClient {
  private readonly pool: Pool;

  constructor(origin: string, connections: number) {
    this.pool = new Pool(origin, { connections });
  }

  /** Resolves when the answer is 200 and whole; rejects with its status and body otherwise. */
  get(path: string, headers: Record<string, string>): Promise<void> {
    return this.send('GET', path, headers);
  }

  /** `get` for any method, with an optional body (a POST's JSON). */
  send(method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: string): Promise<void> {
    return new Promise((resolve, reject) => {
      let status = 0;
      const failure: Buffer[] = [];
      const handler: Dispatcher.DispatchHandler = {
        onRequestStart() {},
        onResponseStart(_controller, statusCode) {
          status = statusCode;
        },
        onResponseData(_controller, chunk) {
          if (status !== 200) failure.push(chunk);
        },
        onResponseEnd() {
          if (status === 200) resolve();
          else reject(new Error(`status ${status}: ${Buffer.concat(failure).toString('utf8')}`));
        },
        onResponseError(_controller, error) {
          reject(error);
        },
      };
      this.pool.dispatch({ method, path, headers, body }, handler);
    });
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
