import { describe, expect, it } from 'vitest';
import { resolveGatewayConfig } from './resolve-gateway-config.js';

const mib = 1024 * 1024;

describe('limits.max_inflight_body_bytes', () => {
  it('defaults to 256 MiB, or the largest body limit when that is larger', () => {
    expect(resolveGatewayConfig({}, {}).limits.maxInflightBodyBytes).toBe(256 * mib);
    expect(
      resolveGatewayConfig({ limits: { body_image_bytes: 300 * mib } }, {}).limits
        .maxInflightBodyBytes,
    ).toBe(300 * mib);
  });

  it('takes an explicit budget, and 0 for none', () => {
    expect(
      resolveGatewayConfig({ limits: { max_inflight_body_bytes: 512 * mib } }, {}).limits
        .maxInflightBodyBytes,
    ).toBe(512 * mib);
    expect(
      resolveGatewayConfig({ limits: { max_inflight_body_bytes: 0 } }, {}).limits
        .maxInflightBodyBytes,
    ).toBe(0);
  });

  it('refuses a budget below the largest body limit, naming the field', () => {
    expect(() =>
      resolveGatewayConfig({ limits: { max_inflight_body_bytes: 10 * mib } }, {}),
    ).toThrow(/^limits\.max_inflight_body_bytes/);
  });
});
