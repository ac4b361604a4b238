export {
  type EnsureKafkaOptions,
  ensureKafka,
  ensureKafkaJars,
  type KafkaHandle,
  kafkaStatus,
  stopKafka,
} from './broker.ts';
export { type BrokerCertificates, makeBrokerCertificates } from './certificates.ts';
export { createTopics, type TopicSpec } from './client.ts';
export { findRepoRoot, kafkaPaths, LOCAL_BROKERS } from './paths.ts';
export {
  freePorts,
  type LinkedBrokers,
  type PrivateKafka,
  type PrivateKafkaOptions,
  type SaslSslListener,
  startPrivateKafka,
} from './private-broker.ts';
