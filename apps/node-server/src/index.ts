export { buildServer } from './build-server.js';
export type { BuildServerOptions, GatewayServer } from './build-server.js';
export { loadConfig } from './load-config.js';
export type { LoadedConfig } from './load-config.js';
export { ConfigFileError, readConfigFile } from '@infergate/node-runtime';
export { createLogger } from './create-logger.js';
