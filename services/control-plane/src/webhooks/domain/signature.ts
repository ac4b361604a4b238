import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new signing secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * The Standard Webhooks headers of one attempt: one `v1,…` signature per secret in use (the current
 * one, and the previous one during a rotation overlap), space-separated.
 */
export function signDelivery(input: {
  deliveryId: string;
  body: string;
  at: Date;
  secrets: readonly string[];
}): SignedHeaders {
  const signatures = input.secrets.map((secret) =>
    new Webhook(secret).sign(input.deliveryId, input.at, input.body),
  );
  return {
    'webhook-id': input.deliveryId,
    'webhook-timestamp': String(Math.floor(input.at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}

/** The secrets that sign now: the previous one only until its overlap ends. */
export function secretsInUse(
  endpoint: { secret: string; previousSecret: string | null; previousSecretExpiresAt: Date | null },
  now: Date,
): string[] {
  const previousValid =
    endpoint.previousSecret !== null &&
    endpoint.previousSecretExpiresAt !== null &&
    endpoint.previousSecretExpiresAt.getTime() > now.getTime();
  return previousValid ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
}
