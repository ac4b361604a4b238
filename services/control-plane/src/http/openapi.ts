import type { HttpApp } from '@engage/kit';
import { buildOpenApiDocument } from './openapi-document.ts';

/** GET /openapi.json: the public API's OpenAPI 3.1 document (no key needed). */
export async function openApiRoutes(scope: HttpApp): Promise<void> {
  const document = buildOpenApiDocument();
  scope.get('/openapi.json', async () => document);
}
