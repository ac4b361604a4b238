import { publicOpenApiDocument } from '@engage/contracts/http/openapi-catalog.ts';
import type { HttpApp } from '@engage/kit';
import { environmentSchemaOperation } from './environment-schema.ts';

/**
 * GET /openapi.json: the /v1 API's OpenAPI 3.1 document (no key needed). The whole document, the
 * admin API's included, is the control plane's.
 */
export async function openApiRoutes(scope: HttpApp): Promise<void> {
  const document = publicOpenApiDocument(environmentSchemaOperation());
  scope.get('/openapi.json', async () => document);
}
