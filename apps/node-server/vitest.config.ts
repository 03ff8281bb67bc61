import { serialAfterParallel, sharedConfig } from '../../vitest.shared.js';

// Files that assert how long a fault takes to be handled, or that load the machine on purpose.
const timed = [
  'test/connection-cap.test.ts',
  'test/drain-on-sigterm.test.ts',
  'test/fault-matrix-body-admission.test.ts',
  'test/fault-matrix-event-loop.test.ts',
  'test/fault-matrix-input.test.ts',
  'test/fault-matrix-netns.test.ts',
  'test/fault-matrix-node-load.test.ts',
  'test/fault-matrix-sigterm.test.ts',
  'test/fault-matrix-slow-reader.test.ts',
  'test/faults.test.ts',
  'test/fd-exhaustion.test.ts',
  'test/limits-replica-killed.test.ts',
  'test/node-edge.test.ts',
  'test/readiness-saturated.test.ts',
  'test/redis-optional-at-start.test.ts',
  'test/rolling-restart-nginx.test.ts',
];

export default serialAfterParallel(sharedConfig, timed);
