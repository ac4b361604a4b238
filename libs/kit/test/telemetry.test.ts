import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentTraceId, extractContext, injectContext, startTelemetry, withSpan } from '../src/telemetry.ts';

describe('telemetry without an exporter', () => {
  let stop: () => Promise<void>;
  beforeAll(() => {
    stop = startTelemetry('telemetry-test', undefined);
  });
  afterAll(() => stop());

  it('records no span of a trace it starts, yet gives it a trace id and passes it on unsampled', async () => {
    await withSpan('root', async (span) => {
      expect(span.isRecording()).toBe(false);
      const traceId = currentTraceId();
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(traceId).not.toBe('0'.repeat(32));
      expect(injectContext().traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-00$`));
    });
  });

  it("keeps a caller's sampled trace sampled", async () => {
    const traceId = '0123456789abcdef0123456789abcdef';
    const parent = extractContext({ traceparent: `00-${traceId}-abababababababab-01` });
    await withSpan(
      'child',
      async (span) => {
        expect(span.isRecording()).toBe(true);
        expect(currentTraceId()).toBe(traceId);
        expect(injectContext().traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
      },
      { parent },
    );
  });
});
