import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EVENT_ITEM_CODES } from '../src/http/events.ts';
import { COMMON_ERROR_CODES, ROUTES } from '../src/http/routes.ts';
import { withProblemTable } from '../src/problem-table.ts';
import { ITEM_REFUSALS, PROBLEM_CODES, PROBLEMS, type ProblemDefinition } from '../src/problems.ts';

const API_DOC = new URL('../../../docs/api.md', import.meta.url);
const entries = Object.entries(PROBLEMS) as [string, ProblemDefinition][];

describe('the problem catalog', () => {
  it('gives every code a stable form: lower snake case, dotted by family', () => {
    for (const code of [...PROBLEM_CODES, ...Object.keys(ITEM_REFUSALS)]) {
      expect(code).toMatch(/^[a-z]+(_[a-z]+)*(\.[a-z]+(_[a-z]+)*)?$/);
    }
  });

  it('gives every code a sentence', () => {
    for (const [, problem] of entries) expect(problem.detail).toMatch(/^\S.*\.$/);
    for (const refusal of Object.values(ITEM_REFUSALS)) expect(refusal.detail).toMatch(/^\S.*\.$/);
  });

  it("follows the contract's retry rules: resend a concurrent update, wait on 429, back off on 500, fix the rest", () => {
    for (const [code, problem] of entries) {
      const expected =
        problem.status === 409 && code.includes('concurrent_update')
          ? 'resend'
          : problem.status === 429
            ? 'wait'
            : problem.status === 500
              ? 'backoff'
              : [400, 401, 403, 404].includes(problem.status) && problem.api !== 'internal'
                ? 'fix'
                : undefined;
      expect([code, problem.retry]).toEqual([code, expected]);
    }
  });

  it('holds every code a /v1 route lists, and each of them is one the public API answers', () => {
    const listed = new Set([...COMMON_ERROR_CODES, ...ROUTES.flatMap((route) => route.errors)]);
    for (const code of listed) expect([code, PROBLEMS[code].api]).toEqual([code, 'public']);
  });

  it('holds every code an event item can be refused with, as an item code', () => {
    for (const code of EVENT_ITEM_CODES) {
      const item = code in ITEM_REFUSALS || (PROBLEMS as Record<string, ProblemDefinition>)[code]?.item;
      expect([code, item]).toEqual([code, true]);
    }
  });

  it('is the table of docs/api.md (run `npm run openapi` when this fails)', () => {
    const text = readFileSync(API_DOC, 'utf8');
    expect(text).toBe(withProblemTable(text));
  });
});
