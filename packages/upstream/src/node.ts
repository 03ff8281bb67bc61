export { createUndiciTransport } from './undici-transport.js';
export type { UndiciTransportOptions } from './undici-transport.js';
