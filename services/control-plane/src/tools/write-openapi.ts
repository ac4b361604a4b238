import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { environmentJsonSchema } from '@engage/contracts/environment-file.ts';
import { withProblemTable } from '@engage/contracts/problem-table.ts';
import { openApiText } from '../http/openapi-document.ts';

/**
 * `npm run openapi`: regenerates docs/openapi.json, docs/schemas/environment.schema.json and the
 * table of problem codes in docs/api.md.
 */
export const OPENAPI_FILE = new URL('../../../../docs/openapi.json', import.meta.url);
export const ENVIRONMENT_SCHEMA_FILE = new URL(
  '../../../../docs/schemas/environment.schema.json',
  import.meta.url,
);
export const API_DOC_FILE = new URL('../../../../docs/api.md', import.meta.url);

if (import.meta.main) {
  writeFileSync(OPENAPI_FILE, openApiText());
  writeFileSync(ENVIRONMENT_SCHEMA_FILE, `${JSON.stringify(environmentJsonSchema(), null, 2)}\n`);
  // The schema lives among the checked sources: give it the repository's JSON formatting.
  const biome = fileURLToPath(new URL('../../../../node_modules/.bin/biome', import.meta.url));
  execFileSync(biome, ['format', '--write', fileURLToPath(ENVIRONMENT_SCHEMA_FILE)], { stdio: 'ignore' });
  writeFileSync(API_DOC_FILE, withProblemTable(readFileSync(API_DOC_FILE, 'utf8')));
  process.stdout.write(
    'wrote docs/openapi.json, docs/schemas/environment.schema.json and the problem codes of docs/api.md\n',
  );
}
