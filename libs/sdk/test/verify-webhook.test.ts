import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from '../src/index.ts';

/**
 * Deliveries signed by `standardwebhooks`, the library the gateway signs with
 * (services/gateway/src/domain/webhook-signature.ts: one `sign` per secret in use, space-separated).
 */
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const PREVIOUS_SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';
const AT = new Date('2026-01-01T10:00:00.000Z');

const event: WebhookEvent = {
  id: '0b6c3d2e-4a5f-4e61-9d8a-2f7b1c9e5a10',
  type: 'mission.completed',
  timestamp: '2026-01-01T10:00:00.000Z',
  environmentId: '7c1e0d8a-7f1e-4c56-8a0e-3e2b1d9c4f21',
  data: {
    playerId: 'player-42',
    missionKey: 'first_win',
    occurrenceNumber: 1,
    completedAt: AT.toISOString(),
  },
};
const body = JSON.stringify(event);

function delivery(secrets: string[], options: { at?: Date; id?: string } = {}) {
  const id = options.id ?? event.id;
  const at = options.at ?? AT;
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(id, at, body)).join(' '),
  };
}

async function refusal(promise: Promise<unknown>): Promise<[WebhookVerificationReason, string]> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WebhookVerificationError);
  return [(err as WebhookVerificationError).reason, (err as Error).message];
}

describe('verifyWebhook', () => {
  it('answers the parsed body of a delivery signed by standardwebhooks, from a string or bytes', async () => {
    const headers = delivery([SECRET]);
    const parsed = await verifyWebhook({ body, headers, secret: SECRET, now: AT });
    expect(parsed).toEqual(event);
    if (parsed.type === 'mission.completed') expect(parsed.data.missionKey).toBe('first_win');
    const bytes = new TextEncoder().encode(body);
    expect(
      await verifyWebhook({ body: bytes, headers: new Headers(headers), secret: SECRET, now: AT }),
    ).toEqual(event);
  });

  it('accepts what standardwebhooks accepts, on the current clock', async () => {
    const headers = delivery([SECRET], { at: new Date() });
    const theirs = new Webhook(SECRET).verify(body, headers);
    expect(await verifyWebhook({ body, headers, secret: SECRET })).toEqual(theirs);
  });

  it('accepts any of several signatures in the header, as during a secret rotation', async () => {
    const headers = delivery([SECRET, PREVIOUS_SECRET]);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(await verifyWebhook({ body, headers, secret: SECRET, now: AT })).toEqual(event);
    expect(await verifyWebhook({ body, headers, secret: PREVIOUS_SECRET, now: AT })).toEqual(event);
    // A receiver holding both secrets while it rolls the new one out accepts a delivery signed by either.
    expect(
      await verifyWebhook({ body, headers: delivery([SECRET]), secret: [PREVIOUS_SECRET, SECRET], now: AT }),
    ).toEqual(event);
  });

  it('skips other signature versions and garbage in the header', async () => {
    const signed = delivery([SECRET]);
    const headers = { ...signed, 'webhook-signature': `v1a,AAAA v1,%%% ${signed['webhook-signature']}` };
    expect(await verifyWebhook({ body, headers, secret: SECRET, now: AT })).toEqual(event);
  });

  it('refuses a tampered body', async () => {
    const tampered = body.replace('player-42', 'player-43');
    expect(
      await refusal(verifyWebhook({ body: tampered, headers: delivery([SECRET]), secret: SECRET, now: AT })),
    ).toEqual([
      'no_matching_signature',
      'none of the 1 v1 signature(s) matches the body under the secret(s) given',
    ]);
  });

  it('refuses a signature made with another secret, or over another id or timestamp', async () => {
    const headers = delivery([PREVIOUS_SECRET]);
    expect((await refusal(verifyWebhook({ body, headers, secret: SECRET, now: AT })))[0]).toBe(
      'no_matching_signature',
    );
    const otherId = { ...delivery([SECRET]), 'webhook-id': crypto.randomUUID() };
    expect((await refusal(verifyWebhook({ body, headers: otherId, secret: SECRET, now: AT })))[0]).toBe(
      'no_matching_signature',
    );
    const moved = { ...delivery([SECRET]), 'webhook-timestamp': String(AT.getTime() / 1000 + 1) };
    expect((await refusal(verifyWebhook({ body, headers: moved, secret: SECRET, now: AT })))[0]).toBe(
      'no_matching_signature',
    );
  });

  it('refuses a timestamp outside the tolerance either way, and keeps to a tolerance given', async () => {
    const headers = delivery([SECRET]);
    const later = (seconds: number) => new Date(AT.getTime() + seconds * 1000);
    expect(await verifyWebhook({ body, headers, secret: SECRET, now: later(300) })).toEqual(event);
    expect(await refusal(verifyWebhook({ body, headers, secret: SECRET, now: later(301) }))).toEqual([
      'timestamp_too_old',
      'webhook-timestamp is 301 s old, more than the 300 s tolerated',
    ]);
    expect(await refusal(verifyWebhook({ body, headers, secret: SECRET, now: later(-301) }))).toEqual([
      'timestamp_too_new',
      'webhook-timestamp is 301 s in the future, more than the 300 s tolerated',
    ]);
    expect(
      (
        await refusal(verifyWebhook({ body, headers, secret: SECRET, now: later(31), toleranceSeconds: 30 }))
      )[0],
    ).toBe('timestamp_too_old');
  });

  it('names a missing header, a timestamp that is not unix seconds, and a secret that is not whsec_', async () => {
    const { 'webhook-signature': _, ...unsigned } = delivery([SECRET]);
    expect(await refusal(verifyWebhook({ body, headers: unsigned, secret: SECRET, now: AT }))).toEqual([
      'missing_header',
      'the webhook-signature header is missing',
    ]);
    const iso = { ...delivery([SECRET]), 'webhook-timestamp': AT.toISOString() };
    expect((await refusal(verifyWebhook({ body, headers: iso, secret: SECRET, now: AT })))[0]).toBe(
      'invalid_timestamp',
    );
    const headers = delivery([SECRET]);
    expect(
      (await refusal(verifyWebhook({ body, headers, secret: 'MfKQ9r8GKYqrTwjUPD8I', now: AT })))[0],
    ).toBe('invalid_secret');
    expect((await refusal(verifyWebhook({ body, headers, secret: [], now: AT })))[0]).toBe('invalid_secret');
  });

  it('refuses a correctly signed body that is not JSON', async () => {
    const text = 'not json';
    const headers = {
      'webhook-id': event.id,
      'webhook-timestamp': String(AT.getTime() / 1000),
      'webhook-signature': new Webhook(SECRET).sign(event.id, AT, text),
    };
    expect((await refusal(verifyWebhook({ body: text, headers, secret: SECRET, now: AT })))[0]).toBe(
      'invalid_payload',
    );
  });
});
