import type { ServerResponse } from 'node:http';
import type { Admission } from '@engage/redis';

/**
 * The longest a slot stays held after its response closed while the handler has not ended: handlers
 * are bounded by their own timeouts well within this, so it only caps what a handler that never
 * ends (a defect) could hold.
 */
export const MAX_HOLD_AFTER_CLOSE_MS = 60_000;

/**
 * Takes a slot for the request behind `res` and ties it to the request's lifetime, so taking and
 * giving back cannot come apart: the slot is given back once the response has closed (finished,
 * failed, or its connection closed) and `handled` has settled (the handler's work is over), and at
 * once when the client went away before the slot was granted (while its key was checked, while it
 * waited, or in the tick it was admitted); such a request is then reported `aborted`. Holding the
 * slot until the handler ends keeps a client that disconnects mid-request from running more than
 * the limit's work behind the gateway. `gone` tells `acquire` to stop waiting.
 */
export async function takeSlotForResponse<A extends Admission>(
  res: ServerResponse,
  handled: Promise<unknown>,
  acquire: (gone: AbortSignal) => Promise<A>,
): Promise<A | { outcome: 'aborted' }> {
  const gone = closeSignal(res);
  let handlingOver = false;
  const markOver = () => {
    handlingOver = true;
  };
  const over = handled.then(markOver, markOver);
  const admission = await acquire(gone);
  if (admission.outcome !== 'admitted') return admission;
  if (gone.aborted) {
    admission.release();
    return { outcome: 'aborted' };
  }
  // The usual end: the answer was sent, then the response closed; the slot goes back at the close.
  const releaseAtClose = () =>
    handlingOver ? admission.release() : void settledOrLate(over).then(admission.release);
  gone.addEventListener('abort', releaseAtClose, { once: true });
  return admission;
}

function settledOrLate(over: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, MAX_HOLD_AFTER_CLOSE_MS).unref();
  });
  return Promise.race([over, late]).finally(() => clearTimeout(timer));
}

/**
 * The reason every close signal carries: nobody reads it, and `abort()` without one would make a
 * DOMException (with its stack) for every response.
 */
const RESPONSE_CLOSED = new Error('the response closed');

/**
 * Aborted when the response closes. Node emits 'close' once for every response (pipelined ones
 * included) and marks it destroyed first, so a close that happened before this call is seen too.
 */
function closeSignal(res: ServerResponse): AbortSignal {
  if (res.destroyed || res.closed) return AbortSignal.abort(RESPONSE_CLOSED);
  const closed = new AbortController();
  res.once('close', () => closed.abort(RESPONSE_CLOSED));
  return closed.signal;
}
