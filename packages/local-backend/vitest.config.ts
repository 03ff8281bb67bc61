import { sharedConfig, withSerialGroup } from '../../vitest.shared.js';

// Alone: it bounds how long this thread is held while a worker tokenizes a heavy prompt.
export default withSerialGroup(sharedConfig, ['src/node/create-threaded-local-backend.test.ts']);
