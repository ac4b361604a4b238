import { SettledLeaderboardPeriodSchema } from '@engage/contracts/http/admin.ts';
import { problemResponses } from '@engage/contracts/http/openapi-problem-responses.ts';
import { z } from 'zod';

/**
 * Admin API operations published in the OpenAPI document beside the public /v1 API: those a game's
 * test tooling calls (the rest of the admin API is the operators', documented in docs/api.md).
 * They take the admin token, never a project key.
 */

type JsonSchema = Record<string, unknown>;

export const ADMIN_SECURITY_SCHEME = {
  type: 'http',
  scheme: 'bearer',
  description:
    "The deployment's ADMIN_TOKEN (`Authorization: Bearer <token>`); project API keys are refused.",
};

/** The operations' paths, and the schemas they reference (for components.schemas). */
export function adminOperations(): {
  paths: Record<string, Record<string, unknown>>;
  schemas: Record<string, JsonSchema>;
} {
  const converted = z.toJSONSchema(z.object({ settled: SettledLeaderboardPeriodSchema }), {
    io: 'output',
    target: 'draft-2020-12',
  }) as { $defs?: Record<string, JsonSchema> };
  return { paths: paths(), schemas: converted.$defs ?? {} };
}

function paths(): Record<string, Record<string, unknown>> {
  const response = { $ref: '#/components/schemas/AdminSettledLeaderboardPeriod' };
  return {
    '/admin/v1/environments/{environmentId}/leaderboards/{leaderboardKey}/settle': {
      post: {
        operationId: 'settleSandboxLeaderboard',
        tags: ['Admin'],
        summary: "Sandbox only: settles the leaderboard's period in progress now, for testing.",
        description:
          'Cuts the period in progress at now and settles it exactly as its end would (final ranks, league ' +
          "promotions and relegations, the analysts' records); the next period starts at the cut. Live " +
          'environments are refused and nothing changes. Served by the query service through the gateway.',
        security: [{ adminToken: [] }],
        parameters: [
          { name: 'environmentId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
          {
            name: 'leaderboardKey',
            in: 'path',
            required: true,
            schema: { type: 'string', minLength: 1, maxLength: 200 },
          },
        ],
        responses: {
          '200': { description: 'OK', content: { 'application/json': { schema: response } } },
          ...problemResponses([
            'validation.request',
            'admin.unauthorized',
            'leaderboard.settle_sandbox_only',
            'environment.not_found',
            'leaderboard.not_found',
            'server.unexpected',
          ]),
        },
      },
    },
  };
}
