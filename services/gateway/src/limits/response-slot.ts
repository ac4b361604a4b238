import type { ServerResponse } from 'node:http';
import type { Admission } from '@engage/redis';

/**
 * Takes a slot for the request behind `res` and ties it to the response's lifetime, so taking and
 * giving back cannot come apart: the slot is given back on the response's 'close' (the response
 * finished, failed, or its connection closed), and at once when the client went away before the
 * slot was granted (while its key was checked, while it waited, or in the tick it was admitted);
 * such a request is then reported `aborted`. `gone` tells `acquire` to stop waiting.
 */
export async function takeSlotForResponse<A extends Admission>(
  res: ServerResponse,
  acquire: (gone: AbortSignal) => Promise<A>,
): Promise<A | { outcome: 'aborted' }> {
  const gone = closeSignal(res);
  const admission = await acquire(gone);
  if (admission.outcome !== 'admitted') return admission;
  if (gone.aborted) {
    admission.release();
    return { outcome: 'aborted' };
  }
  gone.addEventListener('abort', () => admission.release(), { once: true });
  return admission;
}

/**
 * Aborted when the response closes. Node emits 'close' once for every response (pipelined ones
 * included) and marks it destroyed first, so a close that happened before this call is seen too.
 */
function closeSignal(res: ServerResponse): AbortSignal {
  if (res.destroyed || res.closed) return AbortSignal.abort();
  const closed = new AbortController();
  res.once('close', () => closed.abort());
  return closed.signal;
}
