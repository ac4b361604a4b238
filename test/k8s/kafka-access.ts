import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type TopicId, topics } from '@engage/contracts';
import { consumerGroupId } from '@engage/kafka';
import { REPO_ROOT } from './overlays.ts';

/** What one service does on Kafka, read from its code. */
export interface KafkaAccess {
  consumes: { topic: TopicId; group: string }[];
  /** Topics every replica reads whole, each replica in a group of its own named with the prefix. */
  reads: { topic: TopicId; groupPrefix: string }[];
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
 * consumer group (`consumerGroupId('<service>', …)`), or in a list of sources that each name their
 * own group (`group: '<service>-…', definition: topics.<id>`), and produces every other catalog
 * topic its code names (`topics.<id>` handed to a producer or to its outbox). A file that names a
 * `readerGroup: '<group>'` reads the topics it lists as `topic: topics.<id>` whole, in one group
 * per replica named `<group>-…`.
 */
export function kafkaAccessOf(service: string, topicPrefix: string): KafkaAccess {
  const sources = sourcesOf(service);
  const consumed = new Set(
    sources
      .filter((text) => text.includes(`consumerGroupId('${service}'`))
      .flatMap((text) => topicIdsIn(text, /definition: topics\.(\w+)/g)),
  );
  const ownGroups = sources.flatMap((text) =>
    [...text.matchAll(/group: '([\w-]+)',\s*definition: topics\.(\w+)/g)]
      .filter((m) => m[2]! in topics)
      .map((m) => ({ topic: m[2] as TopicId, group: consumerGroupId(m[1]!, topicPrefix) })),
  );
  const named = new Set(sources.flatMap((text) => topicIdsIn(text, /\btopics\.(\w+)/g)));
  const consumes = [
    ...[...consumed].map((topic) => ({ topic, group: consumerGroupId(service, topicPrefix) })),
    ...ownGroups,
  ];
  const reads = sources.flatMap((text) => {
    const group = /readerGroup: '([\w-]+)'/.exec(text)?.[1];
    if (!group) return [];
    const groupPrefix = `${consumerGroupId(group, topicPrefix)}-`;
    return topicIdsIn(text, /topic: topics\.(\w+)/g).map((topic) => ({ topic, groupPrefix }));
  });
  return {
    consumes,
    reads,
    produces: [...named].filter(
      (id) => !consumes.some((c) => c.topic === id) && !reads.some((r) => r.topic === id),
    ),
  };
}
