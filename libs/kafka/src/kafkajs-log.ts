import { logLevel } from 'kafkajs';

export type ServiceLogLevel = 'error' | 'warn' | 'info' | 'debug';

const levels: Record<number, ServiceLogLevel> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

/**
 * Protocol errors kafkajs logs at error level, with a stack trace, while a consumer joins or rejoins
 * its group on a broker that has just started or is moving a group or a new topic's leader; kafkajs
 * retries each of them itself.
 */
const EXPECTED_RETRIES = [
  "The coordinator is loading and hence can't process requests for this group",
  'The group coordinator is not available',
  'This is not the correct coordinator for this group',
  'The group is rebalancing, so a rejoin is needed',
  'There is no leader for this topic-partition as we are in the middle of a leadership election',
];

/** What kafkajs says about its own recovery: the error that caused it is logged on its own. */
const RECOVERY_NOTICES = [/^Restarting the consumer in \d+ms$/, /^The group is rebalancing, re-joining$/];

/**
 * Logged for every idempotent producer with bounded retries. The bound is deliberate and does not
 * weaken what engage promises: the exactly-once effects come from Postgres (offsets stored with
 * each batch's effects, record ids), not from Kafka's exactly-once semantics (docs/operating.md).
 */
const BOUNDED_RETRIES_WARNING = 'Limiting retries for the idempotent producer may invalidate EoS guarantees';

export interface ServiceLogLine {
  level: ServiceLogLevel;
  message: string;
  fields: Record<string, unknown>;
}

/**
 * The level and fields a kafkajs log entry gets in the service's log: expected start-up retries and
 * the known bounded-retries warning go to debug (info for kafkajs's own recovery notices), without a
 * stack trace; everything else keeps kafkajs's level.
 */
export function serviceLogLine(
  level: number,
  log: { message: string; [field: string]: unknown },
): ServiceLogLine {
  const { message, ...fields } = log;
  const text = typeof fields.error === 'string' ? `${message} ${fields.error}` : message;
  if (message === BOUNDED_RETRIES_WARNING) return { level: 'debug', message, fields };
  if (EXPECTED_RETRIES.some((expected) => text.includes(expected))) {
    const { stack: _stack, ...withoutStack } = fields;
    return { level: 'debug', message, fields: withoutStack };
  }
  if (RECOVERY_NOTICES.some((notice) => notice.test(message))) return { level: 'info', message, fields };
  return { level: levels[level] ?? 'info', message, fields };
}
