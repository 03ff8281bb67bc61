import { resolveGatewayConfig, type UpstreamConfig } from '@infergate/core';

export interface UpstreamFileEntry {
  name: string;
  url: string;
  protocol: UpstreamConfig['protocol'];
  models: Record<string, string>;
}

/**
 * The `upstreams` section of a config file that sends every catalogue model to one origin, one entry
 * per protocol, under the name `upstreamName(id)` (the id itself by default). The grouping is the one
 * core gives the embedded local backend when nothing is configured, so a model or protocol added to
 * core is served here without a list to update.
 */
export function upstreamsServingEverything(
  url: string,
  upstreamName: (catalogueId: string) => string = (id) => id,
): UpstreamFileEntry[] {
  return resolveGatewayConfig({}, {}).upstreams.map(({ protocol, models }) => ({
    name: `test-${protocol}`,
    url,
    protocol,
    models: Object.fromEntries(Object.keys(models).map((id) => [id, upstreamName(id)])),
  }));
}
