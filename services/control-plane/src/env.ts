import { fileURLToPath } from 'node:url';
import {
  baseEnv,
  internalAuthEnv,
  kafkaConsumerEnv,
  kafkaEnv,
  metricsPortEnv,
  portEnv,
  postgresEnv,
  redisEnv,
  withKafkaSecurity,
} from '@engage/kit';
import { z } from 'zod';
import { sessionEnv } from './application/session-env.ts';
import { webhooksEnv } from './webhooks/env.ts';

export const controlPlaneEnv = baseEnv
  .extend(portEnv(8084).shape)
  .extend(metricsPortEnv(9468).shape)
  .extend(postgresEnv.shape)
  .extend(kafkaEnv.shape)
  .extend(kafkaConsumerEnv.shape)
  .extend(redisEnv.shape)
  .extend(internalAuthEnv.shape)
  .extend(sessionEnv.shape)
  .extend(webhooksEnv.shape)
  .extend({
    ADMIN_TOKEN: z.string().min(16, 'ADMIN_TOKEN must be at least 16 characters'),
    /** The gateway keeps players and the event debugger's record: operators' reads of them ask it. */
    GATEWAY_URL: z.url().default('http://127.0.0.1:8080'),
    RULES_URL: z.url().default('http://127.0.0.1:8081'),
    LEDGER_URL: z.url().default('http://127.0.0.1:8082'),
    QUERY_URL: z.url().default('http://127.0.0.1:8083'),
    /** The operators' console build served at /console/ (`npm run build -w console`). */
    CONSOLE_DIR: z
      .string()
      .min(1)
      .default(fileURLToPath(new URL('../../../console/dist', import.meta.url))),
  })
  .transform(withKafkaSecurity);

export type ControlPlaneEnv = z.infer<typeof controlPlaneEnv>;
