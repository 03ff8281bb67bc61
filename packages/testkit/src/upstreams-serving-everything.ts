/** The spec's catalogue grouped by the upstream protocol that serves each kind (docs/design.md's config `protocol`). */
const modelsByProtocol = {
  openai: [
    'beta53-flash-chat',
    'beta53-flash-chat-low',
    'beta53-flash-agent',
    'beta53-flash-agent-low',
    'alpha35-122b-a10b-instruct-general',
    'alpha35-122b-a10b-instruct-creative',
    'alpha35-122b-a10b-thinking-general',
    'alpha35-122b-a10b-thinking-coding',
    'alpha36-35b-a3b-instruct',
    'alpha36-35b-a3b-thinking-general',
    'alpha36-35b-a3b-thinking-coding',
    'alpha3-vl-embedding-8b',
    'gamma-m3',
  ],
  cohere: ['gamma-reranker-v2-m3'],
  images: ['alpha-image', 'alpha-image-pe', 'alpha-image-edit', 'alpha-image-edit-pe'],
} as const;

export interface UpstreamFileEntry {
  name: string;
  url: string;
  protocol: string;
  models: Record<string, string>;
}

/**
 * The `upstreams` section of a config file (docs/design.md "Configuration file") that sends every catalogue
 * model to one origin, one entry per protocol, under the name `upstreamName(id)` (the id itself by default).
 */
export function upstreamsServingEverything(url: string, upstreamName: (catalogueId: string) => string = (id) => id): UpstreamFileEntry[] {
  return Object.entries(modelsByProtocol).map(([protocol, ids]) => ({
    name: `test-${protocol}`,
    url,
    protocol,
    models: Object.fromEntries(ids.map((id) => [id, upstreamName(id)])),
  }));
}
