import { cohereProtocol } from './cohere/cohere-protocol.js';
import { imagesProtocol } from './images/images-protocol.js';
import { openaiProtocol } from './openai/openai-protocol.js';
import { teiProtocol } from './tei/tei-protocol.js';
import type { UpstreamProtocol } from '../config/protocol-names.js';
import type { UpstreamProtocolAdapter } from './upstream-protocol.js';

/** Every protocol's adapter, keyed by the config's `upstreams[].protocol` (a missing one fails typecheck). */
export const protocolAdapters: Readonly<Record<UpstreamProtocol, UpstreamProtocolAdapter>> = {
  openai: openaiProtocol,
  tei: teiProtocol,
  cohere: cohereProtocol,
  images: imagesProtocol,
};
