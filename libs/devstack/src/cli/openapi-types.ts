// Writes TypeScript types of the gateway's OpenAPI document (docs/openapi.json, written by `npm run
// openapi`) for a package's typed client: the console's `npm run generate-api` and the SDK's `npm run
// generate-types` both run it, each with its output file and the paths it keeps.
//
//   node openapi-types.ts --output <file> --command <npm command named in the header> [--paths-prefix /v1/]

import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { findRepoRoot } from '../kafka/paths.ts';

const { values } = parseArgs({
  options: {
    output: { type: 'string' },
    command: { type: 'string' },
    'paths-prefix': { type: 'string' },
  },
});
if (!values.output || !values.command) {
  throw new Error(
    'usage: openapi-types.ts --output <file> --command <npm command> [--paths-prefix <prefix>]',
  );
}

const repoRoot = findRepoRoot();
const outputFile = resolve(values.output);
const pathsPrefix = values['paths-prefix'];

const document = JSON.parse(readFileSync(join(repoRoot, 'docs/openapi.json'), 'utf8'));
if (pathsPrefix !== undefined) {
  document.paths = Object.fromEntries(
    Object.entries(document.paths as Record<string, unknown>).filter(([path]) =>
      path.startsWith(pathsPrefix),
    ),
  );
}
// A field with a default that is not required stays optional: request bodies may leave it out, and
// every answer lists the fields it always holds as required.
const ast = await openapiTS(document, { defaultNonNullable: false });
const header = `// Generated from docs/openapi.json by \`${values.command}\`: do not edit by hand.\n`;
writeFileSync(outputFile, header + astToString(ast));
process.stdout.write(`wrote ${relative(repoRoot, outputFile)}\n`);
