import { sharedConfig, withSerialGroup } from '../../vitest.shared.js';

// Alone: the transports' timeouts and abort propagation are timed against the clock.
export default withSerialGroup(sharedConfig, ['test/transports.test.ts']);
