import { describe, expect, it } from 'vitest';
import { defaultCatalogue } from '../catalogue/default-catalogue.js';
import { createGatewayMetrics } from '../metrics/create-gateway-metrics.js';

describe('limiter fallback metric', () => {
  it('counts requests decided locally while the shared limit store was away, from zero', () => {
    const metrics = createGatewayMetrics({ catalogue: defaultCatalogue, operationIds: [] });
    expect(metrics.exposition()).toMatch(/^infergate_limiter_fallback_total 0$/m);
    metrics.limiterFallback();
    metrics.limiterFallback();
    expect(metrics.exposition()).toMatch(/^infergate_limiter_fallback_total 2$/m);
  });
});
