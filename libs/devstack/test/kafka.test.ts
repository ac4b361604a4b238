import { describe, expect, it } from 'vitest';
import { randomClusterId } from '../src/kafka/broker.ts';

describe('randomClusterId', () => {
  it('gives 22-character base64url ids that never start with a dash', () => {
    const ids = Array.from({ length: 500 }, () => randomClusterId());
    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/);
    }
    expect(new Set(ids).size).toBe(500);
  });
});
