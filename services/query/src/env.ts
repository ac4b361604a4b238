import { baseEnv, kafkaConsumerEnv, kafkaEnv, portEnv, postgresEnv, redisEnv } from '@engage/kit';
import { z } from 'zod';

export const queryEnv = baseEnv
  .extend(portEnv(8083).shape)
  .extend(postgresEnv.shape)
  .extend(redisEnv.shape)
  .extend(kafkaEnv.shape)
  .extend(kafkaConsumerEnv.shape)
  .extend({
    /** How often rows a crashed process left unmirrored are pushed to Redis. */
    MIRROR_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).default(2_000),
  });

export type QueryEnv = z.infer<typeof queryEnv>;
