import {
  baseEnv,
  internalAuthEnv,
  kafkaConsumerEnv,
  kafkaEnv,
  metricsPortEnv,
  portEnv,
  postgresEnv,
} from '@engage/kit';
import type { z } from 'zod';

export const rulesEnv = baseEnv
  .extend(portEnv(8081).shape)
  .extend(metricsPortEnv(9465).shape)
  .extend(postgresEnv.shape)
  .extend(internalAuthEnv.shape)
  .extend(kafkaEnv.shape)
  .extend(kafkaConsumerEnv.shape);

export type RulesEnv = z.infer<typeof rulesEnv>;
