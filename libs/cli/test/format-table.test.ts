import { describe, expect, it } from 'vitest';
import { formatTable } from '../src/webhook-commands.ts';

describe('formatTable', () => {
  it('pads each column to its widest cell and leaves the last ragged', () => {
    const table = formatTable(
      ['ID', 'STATUS', 'URL'],
      [
        ['a1', 'active', 'https://game.example/hooks'],
        ['b2-long', 'paused: failing', 'https://x.example'],
      ],
    );
    expect(table).toBe(
      [
        'ID       STATUS           URL',
        'a1       active           https://game.example/hooks',
        'b2-long  paused: failing  https://x.example',
        '',
      ].join('\n'),
    );
  });

  it('trims the trailing spaces of a row whose last cells are empty', () => {
    expect(formatTable(['A', 'B'], [['x', '']])).toBe('A  B\nx\n');
  });
});
