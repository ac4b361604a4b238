// `node libs/cli/src/tools/check-docs.ts` (part of `npm run check`): fails when the README or a
// page of docs/ names an `engage` command, or a setting, that does not exist.
import { join } from 'node:path';
import { checkRepositoryDocs } from '../docs-check/check.ts';

const problems = checkRepositoryDocs(join(import.meta.dirname, '..', '..', '..', '..'));
for (const p of problems) process.stderr.write(`${p.file}:${p.line}: ${p.message}\n`);
if (problems.length > 0) {
  process.stderr.write(`docs check: ${problems.length} problem(s)\n`);
  process.exit(1);
}
