import { describe, expect, it } from 'vitest';
import { operationOf } from '../src/metrics.ts';

describe('the operation label of a statement', () => {
  it('is its first keyword when it is a known one, whatever the case and leading space', () => {
    expect(operationOf('SELECT 1')).toBe('select');
    expect(operationOf('\n  insert into outbox values ($1)')).toBe('insert');
    expect(operationOf('WITH x AS (SELECT 1) SELECT * FROM x')).toBe('with');
    expect(operationOf('BEGIN ISOLATION LEVEL SERIALIZABLE')).toBe('begin');
  });

  it('is "other" for anything else, so statement text never becomes a label', () => {
    expect(operationOf('vacuum analyze players')).toBe('other');
    expect(operationOf('')).toBe('other');
    expect(operationOf("'; drop table x")).toBe('other');
  });
});
