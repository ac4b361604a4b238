import { kafkaEnv, parseEnv, withKafkaSecurity } from '@engage/kit';
import { type Command, Option } from 'commander';
import { tailTopic } from './topic-tail.ts';

interface TopicCommandDeps {
  out: (text: string) => void;
  err: (text: string) => void;
  env: NodeJS.ProcessEnv;
}

/**
 * `engage topics tail`: a topic's records decoded as JSON lines, read with the services' own Kafka
 * settings (KAFKA_BROKERS, KAFKA_TOPIC_PREFIX, the security and schema registry variables).
 */
export function addTopicCommands(program: Command, deps: TopicCommandDeps): void {
  program
    .command('topics')
    .description('the Kafka topics')
    .command('tail <topic>')
    .description(
      'prints the records of a topic (e.g. events.accepted.v1) as JSON lines, decoded by its Avro schema; ' +
        'decimals are exact decimal strings. From the beginning unless --from-offset or --from-time says otherwise',
    )
    .addOption(
      new Option('--from-offset <offset>', 'start at this offset of each partition read').argParser(offset),
    )
    .addOption(
      new Option('--from-time <time>', 'start at the first record written at or after this ISO-8601 time')
        .argParser(time)
        .conflicts('fromOffset'),
    )
    .addOption(new Option('--partition <partition>', 'only this partition').argParser(wholeNumber))
    .option('-e, --environment <environmentId>', 'only records of this environment')
    .option('--player <playerId>', 'only records of this player')
    .addOption(new Option('--limit <records>', 'stop after this many records').argParser(positive))
    .option(
      '-f, --follow',
      'keep printing new records (otherwise stop at the end the topic had at the start)',
    )
    .action(
      async (
        topic: string,
        opts: {
          fromOffset?: bigint;
          fromTime?: Date;
          partition?: number;
          environment?: string;
          player?: string;
          limit?: number;
          follow?: boolean;
        },
      ) => {
        const settings = parseEnv(kafkaEnv.transform(withKafkaSecurity), deps.env);
        await tailTopic(
          {
            brokers: settings.KAFKA_BROKERS,
            topicPrefix: settings.KAFKA_TOPIC_PREFIX,
            kafkaSecurity: settings.kafkaSecurity,
            schemaRegistry: settings.schemaRegistry,
          },
          {
            topic,
            fromOffset: opts.fromOffset,
            fromTime: opts.fromTime,
            partition: opts.partition,
            environmentId: opts.environment,
            playerId: opts.player,
            limit: opts.limit,
            follow: opts.follow,
          },
          (line) => deps.out(`${JSON.stringify(line)}\n`),
          (text) => deps.err(`${text}\n`),
        );
      },
    );
}

function offset(value: string): bigint {
  if (!/^\d{1,19}$/.test(value)) throw new Error(`${value} is not an offset (a whole number from 0)`);
  return BigInt(value);
}

function time(value: string): Date {
  const at = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(at.getTime()))
    throw new Error(`${value} is not an ISO-8601 time such as 2026-01-31T12:00:00Z`);
  return at;
}

function positive(value: string): number {
  const n = wholeNumber(value);
  if (n === 0) throw new Error('0 is not a positive whole number');
  return n;
}

function wholeNumber(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${value} is not a whole number from 0`);
  return n;
}
