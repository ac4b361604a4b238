import { readFileSync } from 'node:fs';
import { environmentJsonSchema } from '@engage/contracts/environment-file.ts';
import { ROUTES } from '@engage/contracts/http/routes.ts';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, openApiText } from '../src/http/openapi-document.ts';
import { ENVIRONMENT_SCHEMA_FILE, OPENAPI_FILE } from '../src/tools/write-openapi.ts';

describe('OpenAPI document', () => {
  it('checked in is up to date (run `npm run openapi`)', () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(openApiText());
    expect(JSON.parse(readFileSync(ENVIRONMENT_SCHEMA_FILE, 'utf8'))).toEqual(environmentJsonSchema());
  });

  it('documents all 13 endpoints with problem documents and the bearer scheme', () => {
    const doc = buildOpenApiDocument() as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, unknown>; securitySchemes: Record<string, { scheme: string }> };
    };
    expect(ROUTES.flatMap((r) => r.endpoint ?? [])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    for (const route of ROUTES) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(op?.responses).toHaveProperty('401');
      expect(op?.responses).toHaveProperty('500');
    }
    expect(doc.components.securitySchemes.apiKey?.scheme).toBe('bearer');
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['ProblemDocument', 'Mission', 'EventBatchResult', 'LeaderboardView']),
    );
  });
});
