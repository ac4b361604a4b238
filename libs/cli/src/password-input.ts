import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

/**
 * Reads a password without it ever being an argument (arguments show in `ps` and shell history):
 * on a terminal, a prompt that does not echo what is typed; otherwise the first line of stdin.
 */
export async function readPassword(prompt: string): Promise<string> {
  const interactive = process.stdin.isTTY === true;
  if (interactive) process.stderr.write(prompt);
  // The terminal's echo goes nowhere: nothing typed is shown.
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const lines = createInterface({ input: process.stdin, output: silent, terminal: interactive });
  try {
    const first = await lines[Symbol.asyncIterator]().next();
    if (interactive) process.stderr.write('\n');
    const line = first.done ? '' : String(first.value);
    if (!line) throw new Error('no password given at the prompt or on stdin');
    return line;
  } finally {
    lines.close();
  }
}
