import { globSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EVENT_ITEM_CODES } from '../src/http/events.ts';
import { COMMON_ERROR_CODES, ROUTES } from '../src/http/routes.ts';
import { withProblemTable } from '../src/problem-table.ts';
import {
  DEFINITION_WARNINGS,
  ITEM_REFUSALS,
  PROBLEM_CODES,
  PROBLEMS,
  type ProblemDefinition,
} from '../src/problems.ts';

const API_DOC = new URL('../../../docs/api.md', import.meta.url);
const REPO_ROOT = new URL('../../../', import.meta.url);
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

  it("follows the contract's retry rules: resend a concurrent update, wait on 429, back off on 500 and 503, fix the rest", () => {
    for (const [code, problem] of entries) {
      const expected =
        problem.status === 409 && code.includes('concurrent_update')
          ? 'resend'
          : problem.status === 429
            ? 'wait'
            : problem.status === 500 || problem.status === 503
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

  it('holds every code the services and libraries answer with', () => {
    const known = new Set<string>([
      ...PROBLEM_CODES,
      ...Object.keys(ITEM_REFUSALS),
      ...Object.keys(DEFINITION_WARNINGS),
    ]);
    const unknown: string[] = [];
    for (const file of codeFiles()) {
      for (const code of codesIn(readFileSync(new URL(file, REPO_ROOT), 'utf8'))) {
        if (!known.has(code) && !code.startsWith('validation.')) unknown.push(`${file}: ${code}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  it('finds codes however a refusal is written', () => {
    const source = [
      "throw problem('a.one');",
      "notFound(\n  'a.two', 'message');",
      "errors: [{ code: 'a.three', message: 'x' }]",
      "export const A = 'a.four' satisfies ProblemCode;",
      "issue({ code: 'custom' })", // zod's issue codes are not problem codes
    ].join('\n');
    expect(codesIn(source)).toEqual(['a.one', 'a.two', 'a.three', 'a.four']);
  });
});

/** Every source file of the services and libraries, relative to the repository root. */
function codeFiles(): string[] {
  return globSync('{services,libs}/*/src/**/*.ts', { cwd: REPO_ROOT.pathname });
}

/**
 * The problem codes a source names: the first argument of problem(), notFound(), conflict() and
 * problemItem(), a dotted `code:` property, and a dotted constant checked against a code type.
 */
function codesIn(source: string): string[] {
  const patterns = [
    /\b(?:problem|notFound|conflict|problemItem)\(\s*'([a-z_]+(?:\.[a-z_]+)?)'/g,
    /\bcode:\s*'([a-z_]+\.[a-z_]+)'/g,
    /'([a-z_]+\.[a-z_]+)'\s+satisfies\b/g,
  ];
  const found = patterns.flatMap((pattern) =>
    [...source.matchAll(pattern)].map((m) => ({ at: m.index, code: m[1]! })),
  );
  return found.sort((a, b) => a.at - b.at).map((f) => f.code);
}
