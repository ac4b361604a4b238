import type { EnvironmentContext } from '@engage/contracts';
import { z } from 'zod';
import type { HttpApp } from './http.ts';
import { environmentOf } from './internal.ts';

/** One item's change when a section of the environment file is applied (see ItemChangeSchema). */
export interface SectionItemChange {
  section: string;
  key: string;
  change: 'created' | 'updated' | 'unchanged' | 'removed';
  fields: string[];
}

export interface DefinitionSection<S extends z.ZodType> {
  /** The top-level key of the environment file, e.g. `missions`. */
  name: string;
  schema: S;
  /** Validates, diffs and (unless dryRun) applies the whole section; returns every item's change. */
  apply: (env: EnvironmentContext, value: z.output<S>, dryRun: boolean) => Promise<SectionItemChange[]>;
  /** The section as currently applied, in the file's shape. */
  read: (env: EnvironmentContext) => Promise<z.input<S>>;
}

const DryRunQuery = z.object({ dryRun: z.enum(['true', 'false']).default('false') });

/**
 * The internal endpoints through which the gateway hands a section of `engage apply` to the service
 * that owns it: `PUT` validates, diffs and applies (`?dryRun=true` only diffs), `GET` reads back.
 * Internal network only, with the gateway's environment headers.
 */
export function registerDefinitionSection<S extends z.ZodType>(app: HttpApp, section: DefinitionSection<S>) {
  const path = `/internal/v1/environments/:environmentId/definition/${section.name}`;
  app.put(path, { schema: { body: section.schema, querystring: DryRunQuery } }, async (request) => {
    const env = environmentOf(request);
    const changes = await section.apply(env, request.body as z.output<S>, request.query.dryRun === 'true');
    return { changes };
  });
  app.get(path, async (request) => ({ value: await section.read(environmentOf(request)) }));
}
