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

/** kafkajs's notice that a consumer rejoins its group on its own, without a crash. */
const REJOINING = 'The group is rebalancing, re-joining';
/** What kafkajs logs after every crash it recovers from; the crash itself is logged just before. */
const RESTARTING = /^Restarting the consumer in \d+ms$/;

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

export type KafkajsLogMapper = (
  level: number,
  log: { message: string; [field: string]: unknown },
) => ServiceLogLine;

/**
 * Gives each kafkajs log entry of one client its level and fields in the service's log: expected
 * start-up retries and the known bounded-retries warning go to debug, without a stack trace; the
 * restart that follows an expected crash, and a rejoin, to info; everything else keeps kafkajs's
 * level (so does the restart after any other crash).
 */
export function kafkajsLogMapper(): KafkajsLogMapper {
  /** Per consumer group: whether its last crash was an expected retry. */
  const lastCrashExpected = new Map<unknown, boolean>();
  return (level, log) => {
    const { message, ...fields } = log;
    if (message === BOUNDED_RETRIES_WARNING) return { level: 'debug', message, fields };
    const text = typeof fields.error === 'string' ? `${message} ${fields.error}` : message;
    const expected = EXPECTED_RETRIES.some((retry) => text.includes(retry));
    if (message.startsWith('Crash: ')) lastCrashExpected.set(fields.groupId, expected);
    if (expected) {
      const { stack: _stack, ...withoutStack } = fields;
      return { level: 'debug', message, fields: withoutStack };
    }
    if (message === REJOINING || (RESTARTING.test(message) && lastCrashExpected.get(fields.groupId))) {
      return { level: 'info', message, fields };
    }
    return { level: levels[level] ?? 'info', message, fields };
  };
}
