export { startLocalBackendServer } from './node/start-local-backend-server.js';
export type { LocalBackendServer } from './node/start-local-backend-server.js';
export type { LocalBackendOptions } from './local-backend-options.js';
