import { logLevel } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { kafkajsLogMapper } from '../src/kafkajs-log.ts';

const serviceLogLine = kafkajsLogMapper();

const stack = 'KafkaJSProtocolError: ...\n    at createErrorFromCode (kafkajs/src/protocol/error.js:581:10)';

describe('kafkajs log entries in the service log', () => {
  it('logs a consumer crash on a loading coordinator at debug, without its stack trace', () => {
    const line = serviceLogLine(logLevel.ERROR, {
      message:
        "Crash: KafkaJSProtocolError: The coordinator is loading and hence can't process requests for this group",
      groupId: 'engage.engage-rules',
      stack,
    });
    expect(line).toEqual({
      level: 'debug',
      message:
        "Crash: KafkaJSProtocolError: The coordinator is loading and hence can't process requests for this group",
      fields: { groupId: 'engage.engage-rules' },
    });
  });

  it.each([
    'The group coordinator is not available',
    'This is not the correct coordinator for this group',
    'The group is rebalancing, so a rejoin is needed',
    'There is no leader for this topic-partition as we are in the middle of a leadership election',
  ])('logs a connection response error "%s" at debug', (error) => {
    const line = serviceLogLine(logLevel.ERROR, {
      message: 'Response JoinGroup(key: 11, version: 5)',
      broker: '127.0.0.1:9092',
      error,
    });
    expect(line.level).toBe('debug');
    expect(line.fields).toEqual({ broker: '127.0.0.1:9092', error });
  });

  it('logs the restart after an expected crash, and a rejoin, at info; the restart after any other crash at error', () => {
    const mapped = kafkajsLogMapper();
    const restart = { message: 'Restarting the consumer in 100ms', retryTime: 100 };
    mapped(logLevel.ERROR, {
      message:
        "Crash: KafkaJSProtocolError: The coordinator is loading and hence can't process requests for this group",
      groupId: 'rules',
    });
    expect(mapped(logLevel.ERROR, { ...restart, groupId: 'rules' }).level).toBe('info');
    mapped(logLevel.ERROR, {
      message: 'Crash: KafkaJSConnectionError: Connection error: write after end',
      groupId: 'rules',
    });
    expect(mapped(logLevel.ERROR, { ...restart, groupId: 'rules' }).level).toBe('error');
    expect(mapped(logLevel.ERROR, { ...restart, groupId: 'query' }).level).toBe('error');
    expect(mapped(logLevel.WARN, { message: 'The group is rebalancing, re-joining' }).level).toBe('info');
  });

  it('logs the warning about bounded retries of the idempotent producer at debug', () => {
    const line = serviceLogLine(logLevel.WARN, {
      message: 'Limiting retries for the idempotent producer may invalidate EoS guarantees',
    });
    expect(line.level).toBe('debug');
  });

  it('keeps genuine errors at error with their stack trace', () => {
    const log = {
      message: 'Crash: KafkaJSConnectionError: Connection error: connect ECONNREFUSED 127.0.0.1:9092',
      groupId: 'engage.engage-query',
      stack,
    };
    expect(serviceLogLine(logLevel.ERROR, log)).toEqual({
      level: 'error',
      message: log.message,
      fields: { groupId: 'engage.engage-query', stack },
    });
    expect(
      serviceLogLine(logLevel.ERROR, {
        message: 'Response Produce(key: 0, version: 7)',
        error: 'This server does not host this topic-partition',
      }).level,
    ).toBe('error');
    expect(
      serviceLogLine(logLevel.WARN, { message: 'Consumer group received unsubscribed topics' }).level,
    ).toBe('warn');
  });
});
