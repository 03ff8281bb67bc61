export { createLocalBackend } from './create-local-backend.js';
export type { LocalBackendOptions } from './local-backend-options.js';
