import { describe, expect, it } from 'vitest';
import { randomClusterId } from '../src/kafka/broker.ts';
import { withOverrides } from '../src/kafka/private-broker.ts';

describe('randomClusterId', () => {
  it('gives 22-character base64url ids that never start with a dash', () => {
    const ids = Array.from({ length: 500 }, () => randomClusterId());
    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/);
    }
    expect(new Set(ids).size).toBe(500);
  });
});

describe('withOverrides', () => {
  it('replaces the keys it names in place, keeps comments and other keys, appends the missing ones', () => {
    const template = [
      '# listeners',
      'listeners=PLAINTEXT://127.0.0.1:9092',
      'node.id=1',
      'log.dirs = old',
      '',
    ].join('\n');
    expect(
      withOverrides(template, {
        listeners: 'PLAINTEXT://127.0.0.1:20001',
        'log.dirs': '/tmp/x/logs',
        'broker.session.timeout.ms': '3000',
      }),
    ).toBe(
      [
        '# listeners',
        'listeners=PLAINTEXT://127.0.0.1:20001',
        'node.id=1',
        'log.dirs=/tmp/x/logs',
        'broker.session.timeout.ms=3000',
        '',
      ].join('\n'),
    );
  });
});
