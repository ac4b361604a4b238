import { Counter, Gauge, Histogram, metricsRegistry } from '@engage/kit';

/** Requests this replica runs under the organization limit right now (all organizations). */
export const slotsHeld = new Gauge({
  name: 'engage_organization_limit_slots_in_use',
  help: 'Requests this replica runs holding an organization slot.',
  labelNames: ['mode'],
  registers: [metricsRegistry],
});

export const requestsWaiting = new Gauge({
  name: 'engage_organization_limit_waiting',
  help: 'Requests on this replica waiting for an organization slot.',
  registers: [metricsRegistry],
});

export const refusals = new Counter({
  name: 'engage_organization_limit_refusals_total',
  help: 'Requests refused with 429 tenant.too_many_concurrent_requests.',
  labelNames: ['reason'],
  registers: [metricsRegistry],
});

/** The organization-wide count of slots in use seen at each admission (all replicas). */
export const organizationSlotsAtAdmission = new Histogram({
  name: 'engage_organization_limit_organization_slots_at_admission',
  help: "Slots of the request's organization in use when it was admitted, this request included.",
  buckets: [1, 2, 4, 8, 12, 16],
  registers: [metricsRegistry],
});

export const abandoned = new Counter({
  name: 'engage_organization_limit_abandoned_total',
  help: 'Requests whose client went away before they were admitted (while authenticated or waiting).',
  registers: [metricsRegistry],
});

export const fallbacks = new Counter({
  name: 'engage_organization_limit_fallbacks_total',
  help: 'Admissions decided by the per-replica share because Redis was unreachable.',
  registers: [metricsRegistry],
});
