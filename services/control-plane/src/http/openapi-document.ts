import {
  API_KEY_SECURITY_SCHEME,
  COMPONENT_REF,
  catalogOpenApi,
  type JsonSchema,
  PUBLIC_API_INFO,
  sortKeys,
} from '@engage/contracts/http/openapi-catalog.ts';
import { environmentSchemaOperation } from './environment-schema.ts';
import { ADMIN_SECURITY_SCHEME, adminOperations } from './openapi-admin-operations.ts';
import { controlPlaneOperations } from './openapi-control-plane-operations.ts';
import { eventDebuggerOperations } from './openapi-event-debugger-operations.ts';
import { operatorOperations, SESSION_SECURITY_SCHEME } from './openapi-operator-operations.ts';
import { playerOperations } from './openapi-player-operations.ts';
import { playerSearchOperations } from './openapi-player-search-operations.ts';
import { webhookOperations } from './openapi-webhook-operations.ts';

/**
 * The OpenAPI 3.1 document of the whole API: the /v1 routes of the catalog and the admin API's
 * operations, with the webhooks the control plane sends.
 */

export function buildOpenApiDocument(): Record<string, unknown> {
  const catalog = catalogOpenApi();
  const admin = adminOperations();
  const controlPlane = controlPlaneOperations();
  const operators = operatorOperations();
  const players = playerOperations();
  const playerSearch = playerSearchOperations();
  const eventDebugger = eventDebuggerOperations();
  const webhooks = webhookOperations();
  const components = {
    ...catalog.schemas,
    ...admin.schemas,
    ...controlPlane.schemas,
    ...operators.schemas,
    ...players.schemas,
    ...playerSearch.schemas,
    ...eventDebugger.schemas,
    ...webhooks.schemas,
  };
  // Schemas converted on their own point at each other as zod writes them (#/$defs/…): components here.
  const asComponents = (schemas: Record<string, JsonSchema>) =>
    JSON.parse(JSON.stringify(schemas).replaceAll('"#/$defs/', `"${COMPONENT_REF}`)) as Record<
      string,
      JsonSchema
    >;

  return {
    openapi: '3.1.0',
    info: PUBLIC_API_INFO,
    servers: [{ url: '/', description: 'The gateway' }],
    security: [{ apiKey: [] }],
    tags: [...new Set([...catalog.tags, 'Admin', 'Schemas', 'Webhooks'])].map((name) => ({
      name,
    })),
    paths: {
      ...catalog.paths,
      ...admin.paths,
      ...controlPlane.paths,
      ...operators.paths,
      ...players.paths,
      ...playerSearch.paths,
      ...eventDebugger.paths,
      ...webhooks.paths,
      ...environmentSchemaOperation(),
    },
    webhooks: webhooks.webhooks,
    components: {
      securitySchemes: {
        adminToken: ADMIN_SECURITY_SCHEME,
        sessionCookie: SESSION_SECURITY_SCHEME,
        apiKey: API_KEY_SECURITY_SCHEME,
      },
      schemas: sortKeys(asComponents(components)),
    },
  };
}

/** The document as written to docs/openapi.json. */
export const openApiText = () => `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
