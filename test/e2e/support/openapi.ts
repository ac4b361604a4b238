import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Schema } from './schema-arbitrary.ts';

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Schema;
}

export interface Operation {
  method: string;
  path: string;
  operationId?: string;
  parameters: Parameter[];
  body?: Schema;
  /** The credential schemes the operation takes (`apiKey`, `adminToken`). */
  security: string[];
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

interface Document {
  paths: Record<
    string,
    Record<
      string,
      Omit<Operation, 'method' | 'path' | 'security'> & {
        requestBody?: { content: Record<string, { schema: Schema }> };
        security?: Record<string, string[]>[];
      }
    >
  >;
  components: { schemas: Record<string, Schema> };
  security?: Record<string, string[]>[];
}

/** docs/openapi.json: its operations, a `$ref` resolver and a validator of answers against it. */
export function loadOpenApi(repoRoot: string) {
  const document = JSON.parse(readFileSync(join(repoRoot, 'docs/openapi.json'), 'utf8')) as Document;
  const operations: Operation[] = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      operationId: op.operationId,
      parameters: op.parameters ?? [],
      body: op.requestBody?.content['application/json']?.schema,
      security: (op.security ?? document.security ?? []).flatMap((requirement) => Object.keys(requirement)),
      responses: op.responses,
    })),
  );
  const resolve = (ref: string): Schema => {
    const name = ref.replace('#/components/schemas/', '');
    const schema = document.components.schemas[name];
    if (!schema) throw new Error(`no schema ${ref}`);
    return schema;
  };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema({ $id: 'openapi', components: document.components });
  /** Problems with an answer (status, media type, body) according to the document; empty when it conforms. */
  const check = (op: Operation, status: number, mediaType: string, body: string): string[] => {
    const declared = op.responses[String(status)];
    if (!declared) return [`status ${status} is not documented`];
    if (!declared.content) return [];
    const content = declared.content[mediaType];
    if (!content) return [`media type ${mediaType} is not documented for ${status}`];
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return ['body is not JSON'];
    }
    const schema = JSON.parse(
      JSON.stringify(content.schema).replaceAll('"#/components/', '"openapi#/components/'),
    );
    const validate = ajv.compile(schema);
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };
  return { operations, resolve, check };
}
