import type { ProblemItem } from '@engage/contracts';
import { createHttpApp, createLogger, environmentOf, Problem } from '@engage/kit';

/**
 * A small owning service for environment-file sections, as rules, ledger and query expose them
 * (`PUT|GET /internal/v1/environments/{id}/definition/{section}`): it keeps what it is given per
 * environment and section, answers each item's change, and refuses what `refuse` says. It records
 * every call, so tests can check what the gateway handed over and in which order.
 */
export interface SectionOwner {
  url: string;
  calls: { section: string; dryRun: boolean; environmentId: string; organizationId: string }[];
  close(): Promise<void>;
}

type Items = { key: string }[];

export async function startSectionOwner(
  options: { refuse?: (section: string, value: unknown) => ProblemItem[] | undefined } = {},
): Promise<SectionOwner> {
  const app = createHttpApp({ log: createLogger('section-owner', 'silent') });
  const stored = new Map<string, unknown>();
  const calls: SectionOwner['calls'] = [];
  app.put('/internal/v1/environments/:environmentId/definition/:section', async (request) => {
    const env = environmentOf(request);
    const { section } = request.params as { section: string };
    const dryRun = (request.query as { dryRun?: string }).dryRun === 'true';
    calls.push({ section, dryRun, environmentId: env.environmentId, organizationId: env.organizationId });
    const refusal = options.refuse?.(section, request.body);
    if (refusal) throw new Problem(400, refusal);
    const id = `${env.environmentId}/${section}`;
    const before = new Set(itemsOf(stored.get(id)).map((item) => item.key));
    const items = itemsOf(request.body);
    if (!dryRun) stored.set(id, request.body);
    return {
      changes: items.map((item) => ({
        section,
        key: item.key,
        change: before.has(item.key) ? 'unchanged' : 'created',
        fields: [],
      })),
    };
  });
  app.get('/internal/v1/environments/:environmentId/definition/:section', async (request) => {
    const env = environmentOf(request);
    const { section } = request.params as { section: string };
    return { value: stored.get(`${env.environmentId}/${section}`) ?? [] };
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url, calls, close: () => app.close() };
}

/** A section's items: the list itself, or every list of an object section (the marketplace's). */
function itemsOf(value: unknown): Items {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value as Items;
  return Object.values(value as Record<string, Items>).flat();
}
