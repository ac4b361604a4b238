import { CommitOutcomeUnknown, TransactionRetriesExhausted } from '@engage/postgres';
import {
  KafkaJSConnectionError,
  KafkaJSNonRetriableError,
  KafkaJSNumberOfRetriesExceeded,
  KafkaJSProtocolError,
} from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { isTransient, UnapplicableRecordError } from '../src/failures.ts';

const pgError = (code: string, message = 'postgres said no') => Object.assign(new Error(message), { code });
const protocolError = (type: string, retriable: boolean) =>
  new KafkaJSProtocolError(Object.assign(new Error(type), { type, retriable, code: 0 }));

describe('isTransient', () => {
  it.each([
    ['a serialization failure', pgError('40001')],
    ['a deadlock', pgError('40P01')],
    ['Postgres shutting down', pgError('57P01')],
    ['a lost connection', pgError('08006')],
    ['too many connections', pgError('53300')],
    ['a table not migrated yet', pgError('42P01')],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })],
    ['node-postgres losing its connection', new Error('Connection terminated unexpectedly')],
    ['retries spent on serialization failures', new TransactionRetriesExhausted('gave up')],
    ['a COMMIT of unknown outcome', new CommitOutcomeUnknown('lost')],
    ['a broker away', new KafkaJSConnectionError('Connection error')],
    [
      'retries spent on a leader moving',
      new KafkaJSNumberOfRetriesExceeded(protocolError('NOT_LEADER_FOR_PARTITION', true), {
        retryCount: 5,
        retryTime: 100,
      }),
    ],
    ['a missing permission on the topic', protocolError('TOPIC_AUTHORIZATION_FAILED', false)],
  ])('retries %s', (_, err) => {
    expect(isTransient(err)).toBe(true);
  });

  it.each([
    ['NUL in text', pgError('22021', 'invalid byte sequence for encoding "UTF8": 0x00')],
    ['an untranslatable character', pgError('22P05')],
    ['a check violation', pgError('23514')],
    ['a domain error', new RangeError('no such period')],
    ['a malformed record', new UnapplicableRecordError('grantId is not a UUID')],
    [
      'a record the broker refuses as too large',
      // What kafkajs's retrier throws when it gives up at once: the refusal as the cause.
      Object.assign(new KafkaJSNonRetriableError(protocolError('MESSAGE_TOO_LARGE', false)), {
        cause: protocolError('MESSAGE_TOO_LARGE', false),
      }),
    ],
    ['a message kafkajs will not send', new KafkaJSNonRetriableError('Invalid message without value')],
  ])('sets aside %s', (_, err) => {
    expect(isTransient(err)).toBe(false);
  });
});
