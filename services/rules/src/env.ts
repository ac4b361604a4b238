import {
  baseEnv,
  internalAuthEnv,
  kafkaConsumerEnv,
  kafkaEnv,
  metricsPortEnv,
  portEnv,
  postgresEnv,
  withKafkaSecurity,
} from '@engage/kit';
import { z } from 'zod';

export const rulesEnv = baseEnv
  .extend(portEnv(8081).shape)
  .extend(metricsPortEnv(9465).shape)
  .extend(postgresEnv.shape)
  .extend(internalAuthEnv.shape)
  .extend(kafkaEnv.shape)
  .extend(kafkaConsumerEnv.shape)
  .extend({
    /** Memory the consumer's cache of decoded player progress may take, estimated, in MiB. */
    PROGRESS_CACHE_MAX_MB: z.coerce.number().int().min(0).default(128),
  })
  .transform(withKafkaSecurity);

export type RulesEnv = z.infer<typeof rulesEnv>;
