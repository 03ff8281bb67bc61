/**
 * The wire protocols an upstream may speak (config `upstreams[].protocol`): the one list of them, which
 * the config schema, the adapters' table and the `UpstreamProtocol` type are built from. Import-free, so
 * that the ports and the config can take it without a cycle.
 */
export const upstreamProtocols = ['openai', 'tei', 'cohere', 'images'] as const;

export type UpstreamProtocol = (typeof upstreamProtocols)[number];
