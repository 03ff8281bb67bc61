export { createUndiciTransport } from './undici-transport.js';
export type { UndiciTransportOptions } from './undici-transport.js';
export { nodeSha256 } from './node-sha256.js';
export { nodeEncodeBase64 } from './node-encode-base64.js';
