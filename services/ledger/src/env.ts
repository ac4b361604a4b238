import { baseEnv, kafkaConsumerEnv, kafkaEnv, portEnv, postgresEnv } from '@engage/kit';
import type { z } from 'zod';

export const ledgerEnv = baseEnv
  .extend(portEnv(8082).shape)
  .extend(postgresEnv.shape)
  .extend(kafkaEnv.shape)
  .extend(kafkaConsumerEnv.shape);

export type LedgerEnv = z.infer<typeof ledgerEnv>;
