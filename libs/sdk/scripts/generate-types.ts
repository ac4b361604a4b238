import { readFileSync, writeFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';

/**
 * `npm run generate-types -w @engage/sdk`: the SDK's types of the /v1 API come from the gateway's
 * OpenAPI document (docs/openapi.json, written by `npm run openapi`); only the /v1 paths are kept.
 */
const OPENAPI_FILE = new URL('../../../docs/openapi.json', import.meta.url);
const TYPES_FILE = new URL('../src/api.ts', import.meta.url);

const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'));
document.paths = Object.fromEntries(
  Object.entries(document.paths as Record<string, unknown>).filter(([path]) => path.startsWith('/v1/')),
);
const ast = await openapiTS(document, { defaultNonNullable: false });
const header =
  '// Generated from docs/openapi.json by `npm run generate-types -w @engage/sdk`: do not edit by hand.\n';
writeFileSync(TYPES_FILE, header + astToString(ast));
process.stdout.write('wrote libs/sdk/src/api.ts\n');
