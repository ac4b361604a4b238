import { environmentJsonSchema } from '@engage/contracts/environment-file.ts';
import type { HttpApp } from '@engage/kit';

/**
 * GET /schemas/environment.json: the JSON Schema of the environment file, without a key or token,
 * so editors can check a file as it is written (`# yaml-language-server: $schema=<this URL>`).
 */
export const ENVIRONMENT_SCHEMA_PATH = '/schemas/environment.json';

export async function environmentSchemaRoutes(scope: HttpApp): Promise<void> {
  const schema = environmentJsonSchema();
  scope.get(ENVIRONMENT_SCHEMA_PATH, async (_request, reply) =>
    reply.type('application/schema+json').send(schema),
  );
}

/** The route's entry in the OpenAPI document. */
export function environmentSchemaOperation(): Record<string, Record<string, unknown>> {
  return {
    [ENVIRONMENT_SCHEMA_PATH]: {
      get: {
        operationId: 'getEnvironmentFileSchema',
        tags: ['Schemas'],
        summary: 'The JSON Schema (draft 2020-12) of the environment file, for editors and tools.',
        security: [],
        responses: {
          '200': {
            description: 'OK',
            content: { 'application/schema+json': { schema: { type: 'object' } } },
          },
        },
      },
    },
  };
}
