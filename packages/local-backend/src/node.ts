export { startLocalBackendServer } from './node/start-local-backend-server.js';
export type { LocalBackendServer } from './node/start-local-backend-server.js';
export { createThreadedLocalBackend } from './node/create-threaded-local-backend.js';
export type {
  ThreadedLocalBackend,
  ThreadedLocalBackendOptions,
} from './node/create-threaded-local-backend.js';
export type { LocalBackendOptions } from './local-backend-options.js';
