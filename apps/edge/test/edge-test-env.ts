import { upstreamsServingEverything } from '@infergate/testkit';

export const testApiKey = 'ig-test-0123456789abcdef0123456789abcdef';

/**
 * Bindings for a gateway started by a test, as an operator would set them: the key, and either every
 * catalogue model sent to `upstreamUrl` through INFERGATE_CONFIG_JSON, or the zero-config local
 * backend reached at `localBackendUrl`.
 */
export function edgeTestBindings(target: {
  upstreamUrl?: string;
  localBackendUrl?: string;
}): Record<string, string> {
  const bindings: Record<string, string> = { INFERGATE_API_KEYS: testApiKey };
  if (target.upstreamUrl)
    bindings.INFERGATE_CONFIG_JSON = JSON.stringify({
      upstreams: upstreamsServingEverything(target.upstreamUrl),
    });
  if (target.localBackendUrl) bindings.INFERGATE_LOCAL_BACKEND_URL = target.localBackendUrl;
  return bindings;
}
