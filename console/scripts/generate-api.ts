import { readFileSync, writeFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';

/**
 * `npm run generate-api -w console`: the console's typed client comes from the gateway's OpenAPI
 * document (docs/openapi.json, written by `npm run openapi`). Run both after an API change.
 */
const OPENAPI_FILE = new URL('../../docs/openapi.json', import.meta.url);
const TYPES_FILE = new URL('../src/api/schema.ts', import.meta.url);

const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'));
// A field with a default that is not required stays optional: request bodies may leave it out, and
// every answer lists the fields it always holds as required.
const ast = await openapiTS(document, { defaultNonNullable: false });
const header =
  '// Generated from docs/openapi.json by `npm run generate-api -w console`: do not edit by hand.\n';
writeFileSync(TYPES_FILE, header + astToString(ast));
process.stdout.write('wrote console/src/api/schema.ts\n');
