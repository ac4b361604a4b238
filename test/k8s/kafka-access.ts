import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type TopicId, topics } from '@engage/contracts';
import { consumerGroupId } from '@engage/kafka';
import { REPO_ROOT } from './overlays.ts';

/** What one service does on Kafka, read from its code. */
export interface KafkaAccess {
  consumes: { topic: TopicId; group: string }[];
  produces: TopicId[];
}

function sourcesOf(service: string): string[] {
  const dir = join(REPO_ROOT, 'services', service, 'src');
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts'))
    .map((file) => readFileSync(join(dir, file), 'utf8'));
}

const topicIdsIn = (text: string, pattern: RegExp) =>
  [...text.matchAll(pattern)].map((m) => m[1] as TopicId).filter((id) => id in topics);

/**
 * A service consumes the topic named as `definition: topics.<id>` in a file that builds its
 * consumer group (`consumerGroupId('<service>', …)`), and produces every other catalog topic its
 * code names (`topics.<id>` handed to a producer or to its outbox).
 */
export function kafkaAccessOf(service: string, topicPrefix: string): KafkaAccess {
  const sources = sourcesOf(service);
  const consumed = new Set(
    sources
      .filter((text) => text.includes(`consumerGroupId('${service}'`))
      .flatMap((text) => topicIdsIn(text, /definition: topics\.(\w+)/g)),
  );
  const named = new Set(sources.flatMap((text) => topicIdsIn(text, /\btopics\.(\w+)/g)));
  return {
    consumes: [...consumed].map((topic) => ({ topic, group: consumerGroupId(service, topicPrefix) })),
    produces: [...named].filter((id) => !consumed.has(id)),
  };
}
