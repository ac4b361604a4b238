import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDocs, checkRepositoryDocs } from '../src/docs-check/check.ts';

const repoRoot = join(import.meta.dirname, '..', '..', '..');
const fixture = join(import.meta.dirname, 'fixtures', 'docs-check');

describe('the docs check', () => {
  it('names each made-up command, option and setting of a page, with its line', () => {
    const problems = checkDocs({
      root: fixture,
      pages: [join(fixture, 'docs')],
      code: [join(fixture, 'code')],
    });
    expect(problems).toEqual([
      {
        file: 'docs/page.md',
        line: 10,
        message: expect.stringContaining('engage players has no command frobnicate'),
      },
      {
        file: 'docs/page.md',
        line: 11,
        message: expect.stringContaining('engage apply has no option --no-such-flag'),
      },
      {
        file: 'docs/page.md',
        line: 14,
        message: expect.stringContaining('engage key has no command rotate'),
      },
      { file: 'docs/page.md', line: 3, message: 'MADE_UP_SETTING is not a setting the code reads' },
    ]);
  });

  it('passes on the README and docs/ of the repository', () => {
    const problems = checkRepositoryDocs(repoRoot);
    expect(problems).toEqual([]);
  });
});
