export { defaultEdgePort, startEdgeNodeServer } from './start-edge-node-server.js';
export type { EdgeNodeServer, EdgeNodeServerOptions } from './start-edge-node-server.js';
