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

export const ledgerEnv = baseEnv
  .extend(portEnv(8082).shape)
  .extend(metricsPortEnv(9466).shape)
  .extend(postgresEnv.shape)
  .extend(internalAuthEnv.shape)
  .extend(kafkaEnv.shape)
  .extend(kafkaConsumerEnv.shape)
  .extend({
    /** Most queued writes (of any players) combined into one transaction (1: every write commits alone). */
    PLAYER_BATCH_MAX: z.coerce.number().int().min(1).max(1_000).default(64),
    /**
     * Write transactions running at once, each on its own connection (at most DATABASE_POOL_SIZE - 1).
     * A batch costs the same few statements whatever its size, so fewer at once make larger batches.
     */
    WRITE_BATCHES_IN_FLIGHT: z.coerce.number().int().min(1).max(100).default(2),
  })
  .transform(withKafkaSecurity);

export type LedgerEnv = z.infer<typeof ledgerEnv>;
