import { STATUS_CODES } from 'node:http';
import { PROBLEMS, type ProblemCode, RETRY_RULES } from '../problems.ts';

const PROBLEM_CONTENT = {
  'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDocument' } },
};

const RETRY_AFTER: Record<number, { schema: Record<string, unknown>; description: string }> = {
  429: { schema: { type: 'integer' }, description: 'Seconds to wait.' },
  500: {
    schema: { type: 'integer' },
    description:
      'Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again.',
  },
};

/**
 * An operation's error answers, one per status, from the problem catalog: each lists its codes with
 * the catalog's sentence and, where the contract gives one, what a client does about it.
 */
export function problemResponses(codes: readonly ProblemCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of new Set(codes)) {
    const { status } = PROBLEMS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, unknown> = {};
  for (const status of [...byStatus.keys()].sort()) {
    const lines = byStatus.get(status)!.map((code) => `- ${codeLine(code)}`);
    if (status === 400) lines.push('- `validation.<field>`: the named field is refused.');
    responses[String(status)] = {
      description: `${STATUS_CODES[status]}:\n\n${lines.join('\n')}`,
      ...(RETRY_AFTER[status] ? { headers: { 'Retry-After': RETRY_AFTER[status] } } : {}),
      content: PROBLEM_CONTENT,
    };
  }
  return responses;
}

function codeLine(code: ProblemCode): string {
  const problem: { detail: string; retry?: keyof typeof RETRY_RULES } = PROBLEMS[code];
  const retry = problem.retry ? ` (${RETRY_RULES[problem.retry]})` : '';
  return `\`${code}\`: ${problem.detail}${retry}`;
}
