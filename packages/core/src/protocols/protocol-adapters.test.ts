import { describe, expect, it } from 'vitest';
import type { Endpoint, ModelKind } from '../catalogue/catalogue-types.js';
import { endpointsForKind } from '../config/extend-catalogue.js';
import { protocolsForKind } from '../config/resolve-gateway-config.js';
import { protocolAdapters } from './protocol-adapters.js';
import { upstreamProtocols } from '../config/protocol-names.js';
import type { ProtocolOperationName } from './upstream-protocol.js';

// What each endpoint's handler calls on the model's protocol. compat-embed's image form (embedImage) is
// left out: a text-only protocol serves compat-embed's text inputs and answers image inputs with a 502.
const operationsOfEndpoint: Readonly<Record<Endpoint, readonly ProtocolOperationName[]>> = {
  responses: ['chat'],
  chat: ['chat'],
  embeddings: ['embeddings'],
  'compat-embed': ['embeddings'],
  'compat-rerank': ['rerank'],
  'image-generations': ['imageGeneration'],
  'image-edits': ['imageEdit'],
  tokenize: ['tokenize'],
};

const allowedPairs = (
  Object.entries(protocolsForKind) as Array<[ModelKind, readonly string[]]>
).flatMap(([kind, protocols]) => protocols.map((protocol) => [kind, protocol] as const));

describe('protocolAdapters', () => {
  it('has one adapter for each protocol the config accepts, and no other', () => {
    expect(Object.keys(protocolAdapters).sort()).toEqual([...upstreamProtocols].sort());
  });

  it.each(allowedPairs)(
    'gives %s models over %s every operation their endpoints call',
    (kind, protocol) => {
      const adapter = protocolAdapters[protocol as keyof typeof protocolAdapters];
      const needed = new Set(
        endpointsForKind[kind].flatMap((endpoint) => operationsOfEndpoint[endpoint]),
      );
      expect([...needed].filter((name) => adapter[name] === undefined)).toEqual([]);
    },
  );

  it('lets the config put a kind only on protocols that serve it, each protocol on some kind', () => {
    const used = new Set(allowedPairs.map(([, protocol]) => protocol));
    expect([...used].sort()).toEqual([...upstreamProtocols].sort());
  });
});
