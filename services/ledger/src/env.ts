import { baseEnv, kafkaConsumerEnv, kafkaEnv, portEnv, postgresEnv } from '@engage/kit';
import { z } from 'zod';

export const ledgerEnv = baseEnv
  .extend(portEnv(8082).shape)
  .extend(postgresEnv.shape)
  .extend(kafkaEnv.shape)
  .extend(kafkaConsumerEnv.shape)
  .extend({
    /** Most queued writes (of any players) combined into one transaction (1: every write commits alone). */
    PLAYER_BATCH_MAX: z.coerce.number().int().min(1).max(1_000).default(64),
  });

export type LedgerEnv = z.infer<typeof ledgerEnv>;
