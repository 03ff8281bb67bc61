import { sharedConfig, withSerialGroup } from '../../vitest.shared.js';

// Alone: the load generator's latency figures are compared with each other.
export default withSerialGroup(sharedConfig, ['test/open-loop.test.ts']);
