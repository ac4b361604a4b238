import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { environmentJsonSchema } from '@engage/contracts/environment-file.ts';
import { openApiText } from '../http/openapi-document.ts';

/** `npm run openapi`: regenerates docs/openapi.json and docs/schemas/environment.schema.json. */
export const OPENAPI_FILE = new URL('../../../../docs/openapi.json', import.meta.url);
export const ENVIRONMENT_SCHEMA_FILE = new URL(
  '../../../../docs/schemas/environment.schema.json',
  import.meta.url,
);

if (import.meta.main) {
  writeFileSync(OPENAPI_FILE, openApiText());
  writeFileSync(ENVIRONMENT_SCHEMA_FILE, `${JSON.stringify(environmentJsonSchema(), null, 2)}\n`);
  // The schema lives among the checked sources: give it the repository's JSON formatting.
  const biome = fileURLToPath(new URL('../../../../node_modules/.bin/biome', import.meta.url));
  execFileSync(biome, ['format', '--write', fileURLToPath(ENVIRONMENT_SCHEMA_FILE)], { stdio: 'ignore' });
  process.stdout.write('wrote docs/openapi.json and docs/schemas/environment.schema.json\n');
}
