export type { components, operations, paths } from './api.ts';
export {
  EngageClient,
  type EngageClientOptions,
  type EventItem,
  type PointsAdjustment,
  type Purchase,
} from './client.ts';
export { EventQueue, type EventQueueOptions } from './event-queue.ts';
export { EngageProblem, EngageUnreachable, type ProblemDocument } from './problem.ts';
export type { RetryOptions } from './retries.ts';
export {
  type VerifyWebhookInput,
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from './verify-webhook.ts';
