import type { EnvironmentContext } from '@engage/contracts';
import type { HttpApp } from '@engage/kit';
import { injectAsGateway, internalHeaders } from '@engage/testkit';

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  /** The body as sent, so a replay can be compared byte for byte. */
  text: string;
  replayed: boolean;
}

export interface AdjustmentBody {
  playerId: string;
  amount: number;
  reason?: string;
  idempotencyKey?: string;
}

/** POST /v1/points/adjustments as the gateway forwards it, in process. */
export async function adjust(app: HttpApp, env: EnvironmentContext, body: AdjustmentBody): Promise<Answer> {
  const res = await injectAsGateway(app, {
    method: 'POST',
    url: '/v1/points/adjustments',
    headers: internalHeaders(env, { id: body.playerId }),
    payload: body,
  });
  return {
    status: res.statusCode,
    body: res.json(),
    text: res.body,
    replayed: res.headers['idempotent-replayed'] === 'true',
  };
}

/** GET /v1/points as the gateway forwards it, in process. */
export async function balanceAnswer(app: HttpApp, env: EnvironmentContext, playerId: string) {
  const res = await injectAsGateway(app, {
    method: 'GET',
    url: `/v1/points?PlayerId=${encodeURIComponent(playerId)}`,
    headers: internalHeaders(env, { id: playerId }),
  });
  return { status: res.statusCode, body: res.json() };
}
