import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';

/**
 * A server that answers before it has read what the client is still sending, and then closes,
 * makes the kernel reset the connection: the client's next write fails (EPIPE) and the answer it
 * had not read yet is lost. So after an early answer the rest of the input is read and discarded,
 * up to a bound, and only a client that sends more than that is cut off.
 */

/** Most bytes read and discarded after an early answer before the connection is cut. */
export const MAX_DISCARDED_INPUT_BYTES = 64 * 1024 * 1024;
/** Longest wait for the client to finish sending (or to close) after an early answer. */
export const DISCARD_INPUT_TIMEOUT_MS = 10_000;

/**
 * Reads the unread rest of a request body and discards it; the connection stays usable for the
 * next request once the body has ended.
 */
export function discardRequestBody(request: IncomingMessage): void {
  discard(request, request.socket);
}

/** Connections answered by answerAndClose: what they still send is discarded, not parsed again. */
const answered = new WeakSet<Socket>();

/**
 * Whether a connection has had its final answer. Node's HTTP parser, once it has failed, fails again
 * on every later chunk of the same input; those failures need no answer of their own.
 */
export const hasFinalAnswer = (socket: Socket): boolean => answered.has(socket);

/**
 * Sends an answer on a connection whose input cannot be parsed any further and closes it once the
 * client has closed its side, reading and discarding what it still sends meanwhile.
 */
export function answerAndClose(socket: Socket, answer: string): void {
  answered.add(socket);
  socket.once('end', () => socket.destroy());
  socket.end(answer);
  discard(socket, socket);
}

/** Reads and discards `input` until it ends; past the bound in bytes or time, the connection is cut. */
function discard(input: Readable, socket: Socket): void {
  let discarded = 0;
  const cut = () => socket.destroy();
  const timer = setTimeout(cut, DISCARD_INPUT_TIMEOUT_MS).unref();
  const stop = () => clearTimeout(timer);
  input.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > MAX_DISCARDED_INPUT_BYTES) cut();
  });
  input.once('end', stop);
  socket.once('close', stop);
  input.resume();
}
