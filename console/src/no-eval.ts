import { config } from 'zod';

/**
 * The console's Content-Security-Policy refuses `eval` and `new Function`. zod (which the shared
 * contracts bring in) probes for them to compile faster parsers, and the probe alone is a reported
 * violation: it is told not to. Imported first, before any schema exists.
 */
config({ jitless: true });
