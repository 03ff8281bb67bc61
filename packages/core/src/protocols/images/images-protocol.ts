import type { UpstreamProtocolAdapter } from '../upstream-protocol.js';
import { imageResultFromUpstream } from './image-result-from-upstream.js';
import { imageUpstreamRequest } from './image-upstream-request.js';

/** An OpenAI-images-style server: generations and JSON-form edits, nothing else. */
export const imagesProtocol: UpstreamProtocolAdapter = {
  imageGeneration: { request: imageUpstreamRequest, read: imageResultFromUpstream },
  imageEdit: { request: imageUpstreamRequest, read: imageResultFromUpstream },
};
