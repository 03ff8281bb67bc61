// Temporary (issue 6): core's index plus what it does not export yet, so that the node-server (which
// imports these from '@infergate/core') can be built in these tests. Delete with src/core-pending-exports.ts.
export * from '../../../packages/core/src/index.js';
export * from '../src/core-pending-exports.js';
export { createKeyStore } from '../../../packages/core/src/auth/create-key-store.js';
