import { z } from 'zod';
import { PropertyDefinitionSchema } from '../environment-file.ts';
import {
  EventKeySchema,
  MAX_EVENT_BATCH_ITEMS,
  MAX_PROPERTIES_PER_EVENT,
  PropertyNameSchema,
} from './events.ts';

/**
 * POST /internal/v1/discoveries: the edge (the gateway) reports the events and properties it saw first
 * in an environment's traffic; the control plane records the first occurrence of each and answers
 * those events as stored. Signed like every internal call (INTERNAL_HEADERS).
 */
export const INTERNAL_DISCOVERIES_PATH = '/internal/v1/discoveries';

const DiscoveredEventSchema = z.strictObject({
  key: EventKeySchema,
  active: z.boolean(),
  properties: z
    .record(PropertyNameSchema, PropertyDefinitionSchema.required())
    .refine((p) => Object.keys(p).length <= MAX_PROPERTIES_PER_EVENT, {
      message: `at most ${MAX_PROPERTIES_PER_EVENT} properties per event`,
    }),
});

export const RecordDiscoveriesSchema = z.strictObject({
  environmentId: z.uuid(),
  events: z.array(DiscoveredEventSchema).min(1).max(MAX_EVENT_BATCH_ITEMS),
});
export type RecordDiscoveries = z.infer<typeof RecordDiscoveriesSchema>;

/** The events asked about as stored after the call (an event discovery may not define is absent). */
export const RecordedDiscoveriesSchema = z.strictObject({ events: z.array(DiscoveredEventSchema) });
export type RecordedDiscoveries = z.infer<typeof RecordedDiscoveriesSchema>;
