import { z } from 'zod';
import { problemResponses } from './openapi-problem-responses.ts';
import { ProblemDocumentSchema } from './problem.ts';
import { ROUTES, type RouteDefinition, routeErrorCodes } from './routes.ts';

/**
 * The /v1 API's part of the OpenAPI 3.1 document, generated from the route catalog: the gateway
 * serves it alone, the control plane with the admin API's operations. Schemas with a
 * `.meta({ id })` become components; every error answer is a problem document listing its codes.
 */

export type JsonSchema = Record<string, unknown>;

export const COMPONENT_REF = '#/components/schemas/';

export const PUBLIC_API_INFO = {
  title: 'engage API',
  version: '1',
  description:
    'Player engagement: events, missions, streaks, points, shop and leaderboards. Every failure is an ' +
    'RFC 9457 problem document (application/problem+json) with a stable `code`. A request breaking ' +
    'several rules lists them all in `errors`, in the order of its fields (path, then query or body, ' +
    'as listed here); the first gives `code` and `detail`. A 400 whose `code` is `validation.*` ' +
    'always has the same `detail` sentence: read `errors`. ' +
    'Text holding U+0000 or an unpaired UTF-16 surrogate (anywhere: body, path, query) is refused with ' +
    '`validation.<field>` and `meta.reason` `unrepresentable_text` (an event batch refuses only the item holding it).',
};

export const API_KEY_SECURITY_SCHEME = {
  type: 'http',
  scheme: 'bearer',
  description:
    'A project API key (`eng_sandbox_…` or `eng_live_…`) in the Authorization header; the `Bearer ` ' +
    'prefix is optional.',
};

/** The catalog's paths and the component schemas they refer to (the problem document among them). */
export function catalogOpenApi(): {
  paths: Record<string, Record<string, unknown>>;
  schemas: Record<string, JsonSchema>;
  tags: string[];
} {
  const inputs = collect('input', (route) => ({
    params: route.params,
    query: route.query,
    body: route.body,
  }));
  const outputs = collect('output', (route) => ({ response: route.response }));
  const problem = toSchema(z.object({ problem: ProblemDocumentSchema }), 'output');
  const paths: Record<string, Record<string, unknown>> = {};
  ROUTES.forEach((route, i) => {
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operation(
      route,
      inputs.properties[String(i)] ?? {},
      outputs.properties[String(i)] ?? {},
    );
  });
  return {
    paths,
    schemas: { ...inputs.defs, ...outputs.defs, ...problem.defs },
    tags: [...new Set(ROUTES.map((r) => r.tag))],
  };
}

/** The document of the /v1 API alone, as the gateway serves it. */
export function publicOpenApiDocument(
  extraPaths: Record<string, Record<string, unknown>> = {},
): Record<string, unknown> {
  const catalog = catalogOpenApi();
  return {
    openapi: '3.1.0',
    info: PUBLIC_API_INFO,
    servers: [{ url: '/', description: 'The gateway' }],
    security: [{ apiKey: [] }],
    tags: [...catalog.tags, ...(Object.keys(extraPaths).length ? ['Schemas'] : [])].map((name) => ({ name })),
    paths: { ...catalog.paths, ...extraPaths },
    components: {
      securitySchemes: { apiKey: API_KEY_SECURITY_SCHEME },
      schemas: sortKeys(catalog.schemas),
    },
  };
}

interface Collected {
  /** Per route index: its part name → JSON Schema. */
  properties: Record<string, Record<string, JsonSchema>>;
  defs: Record<string, JsonSchema>;
}

/**
 * Converts the schemas of every route in one pass, so each schema with an id is emitted once as a
 * component and referenced everywhere else.
 */
function collect(
  io: 'input' | 'output',
  parts: (route: RouteDefinition) => Record<string, z.ZodType | undefined>,
) {
  const shape: Record<string, z.ZodType> = {};
  ROUTES.forEach((route, i) => {
    const defined = Object.entries(parts(route)).filter((entry): entry is [string, z.ZodType] => !!entry[1]);
    shape[String(i)] = z.object(Object.fromEntries(defined));
  });
  const converted = toSchema(z.object(shape), io);
  const properties: Collected['properties'] = {};
  for (const [index, schema] of Object.entries(converted.properties)) {
    properties[index] = ((schema as JsonSchema).properties ?? {}) as Record<string, JsonSchema>;
  }
  return { properties, defs: converted.defs };
}

export function toSchema(schema: z.ZodType, io: 'input' | 'output') {
  const json = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
  const text = JSON.stringify(json).replaceAll('"#/$defs/', `"${COMPONENT_REF}`);
  const rewritten = JSON.parse(text) as JsonSchema;
  return {
    properties: (rewritten.properties ?? {}) as Record<string, JsonSchema>,
    defs: (rewritten.$defs ?? {}) as Record<string, JsonSchema>,
  };
}

function operation(
  route: RouteDefinition,
  input: Record<string, JsonSchema>,
  output: Record<string, JsonSchema>,
) {
  const parameters = [...parametersOf(input.params, 'path'), ...parametersOf(input.query, 'query')];
  return {
    operationId: route.id,
    tags: [route.tag],
    summary: route.summary,
    description: [
      route.description,
      route.endpoint === undefined
        ? `Named by the contract only through its error codes; served by the ${route.owner} service.`
        : `Endpoint ${route.endpoint} of the contract; served by the ${route.owner} service.`,
    ]
      .filter(Boolean)
      .join('\n\n'),
    ...(parameters.length ? { parameters } : {}),
    ...(input.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: stripSchemaKey(input.body) } },
          },
        }
      : {}),
    responses: withReplayHeader(route, {
      '200': {
        description: 'OK',
        content: { 'application/json': { schema: stripSchemaKey(output.response ?? {}) } },
      },
      ...problemResponses(routeErrorCodes(route)),
    }),
  };
}

const IDEMPOTENT_REPLAYED = {
  schema: { type: 'string', const: 'true' },
  description:
    'Present when the answer is the stored outcome of an earlier request with the same idempotency key.',
};

/** A write that replays by key can answer its stored outcome: a 200 or a 409 refusal. */
function withReplayHeader(route: RouteDefinition, responses: Record<string, unknown>) {
  if (!route.replaysByKey) return responses;
  for (const status of ['200', '409']) {
    const response = responses[status] as Record<string, unknown> | undefined;
    if (!response) continue;
    const headers = (response.headers ?? {}) as Record<string, unknown>;
    responses[status] = { ...response, headers: { ...headers, 'Idempotent-Replayed': IDEMPOTENT_REPLAYED } };
  }
  return responses;
}

function parametersOf(schema: JsonSchema | undefined, where: 'path' | 'query') {
  if (!schema) return [];
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: property,
    ...(property.type === 'array' || Array.isArray(property.anyOf) ? { style: 'form', explode: true } : {}),
  }));
}

function stripSchemaKey(schema: JsonSchema): JsonSchema {
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}

export function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
