import { type EnvironmentContext, INTERNAL_HEADERS, type ProblemItem } from '@engage/contracts';
import type { ItemChange } from '@engage/contracts/environment-file.ts';
import { injectContext, type Logger, Problem, unexpectedProblem } from '@engage/kit';
import type { OwnerService, Upstreams } from './upstreams.ts';

/**
 * The hand-off of environment-file sections to the services that own them, over their internal
 * endpoint `PUT|GET /internal/v1/environments/{environmentId}/definition/{section}`.
 */

export type OwnerSections = { name: string; owner: OwnerService; value: unknown }[];

export interface OwnerSectionClient {
  /**
   * Sends each section to its owner. A dry run asks every owner at once and, if any refuses,
   * throws one problem listing every refusal (status of the first); a real apply goes section by
   * section in the given order. An owner that does not answer is a 500 (retryable).
   */
  applyAll(
    env: EnvironmentContext,
    sections: OwnerSections,
    options: { dryRun: boolean },
  ): Promise<ItemChange[]>;
  readAll(
    env: EnvironmentContext,
    sections: { name: string; owner: OwnerService }[],
  ): Promise<Record<string, unknown>>;
}

interface OwnerAnswer {
  status: number;
  body: unknown;
}

export function ownerSectionsOf(upstreams: Upstreams, log: Logger): OwnerSectionClient {
  const call = async (
    env: EnvironmentContext,
    owner: OwnerService,
    method: 'GET' | 'PUT',
    section: string,
    query: string,
    body?: unknown,
  ): Promise<OwnerAnswer> => {
    const path = `/internal/v1/environments/${env.environmentId}/definition/${section}${query}`;
    const headers = injectContext({
      [INTERNAL_HEADERS.organizationId]: env.organizationId,
      [INTERNAL_HEADERS.environmentId]: env.environmentId,
      [INTERNAL_HEADERS.environmentKind]: env.environmentKind,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    });
    try {
      const response = await upstreams[owner].request({
        method,
        path,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.body.text();
      return { status: response.statusCode, body: text ? JSON.parse(text) : undefined };
    } catch (err) {
      log.error({ err, owner, section }, 'the owner of an environment-file section did not answer');
      throw unexpectedProblem();
    }
  };

  const refusalOf = (section: string, owner: OwnerService, answer: OwnerAnswer): ProblemItem[] => {
    const errors = (answer.body as { errors?: ProblemItem[] } | undefined)?.errors;
    if (answer.status >= 500 || !Array.isArray(errors) || errors.length === 0) {
      log.error({ owner, section, status: answer.status }, 'the owner of a section failed');
      throw unexpectedProblem();
    }
    return errors.map((e) => ({ ...e, meta: { ...e.meta, section } }));
  };

  const changesOf = (section: string, answer: OwnerAnswer): ItemChange[] => {
    const changes = (answer.body as { changes?: ItemChange[] } | undefined)?.changes ?? [];
    return changes.map((c) => ({ ...c, section: c.section || section }));
  };

  return {
    async applyAll(env, sections, { dryRun }) {
      const query = `?dryRun=${dryRun}`;
      if (dryRun) {
        const answers = await Promise.all(
          sections.map((s) => call(env, s.owner, 'PUT', s.name, query, s.value)),
        );
        const refusals: { status: number; errors: ProblemItem[] }[] = [];
        answers.forEach((answer, i) => {
          const s = sections[i]!;
          if (answer.status >= 300)
            refusals.push({ status: answer.status, errors: refusalOf(s.name, s.owner, answer) });
        });
        if (refusals.length > 0)
          throw new Problem(
            refusals[0]!.status,
            refusals.flatMap((r) => r.errors),
          );
        return answers.flatMap((answer, i) => changesOf(sections[i]!.name, answer));
      }
      const changes: ItemChange[] = [];
      for (const s of sections) {
        const answer = await call(env, s.owner, 'PUT', s.name, query, s.value);
        if (answer.status >= 300) {
          // The dry run accepted it moments ago: a concurrent change or a failing owner. Retryable.
          log.error(
            { owner: s.owner, section: s.name, status: answer.status },
            'an owner refused a section after its dry run',
          );
          throw unexpectedProblem();
        }
        changes.push(...changesOf(s.name, answer));
      }
      return changes;
    },

    async readAll(env, sections) {
      const entries = await Promise.all(
        sections.map(async ({ name, owner }) => {
          const answer = await call(env, owner, 'GET', name, '');
          if (answer.status !== 200) {
            log.error(
              { owner, section: name, status: answer.status },
              'could not read a section from its owner',
            );
            throw unexpectedProblem();
          }
          return [name, (answer.body as { value?: unknown } | undefined)?.value] as const;
        }),
      );
      return Object.fromEntries(entries.filter(([, value]) => value !== undefined));
    },
  };
}
