import { sharedConfig, withSerialGroup } from '../../vitest.shared.js';

// Alone, one at a time: files that bound a latency, a timeout's precision or a rate (the fault matrix's
// timed rows, key limits over time windows, what a stream aborted early is charged), or that load the
// machine on purpose (200 streams, the event loop against a tokenizer, descriptors run out).
export default withSerialGroup(sharedConfig, [
  'test/fault-matrix-body-admission.test.ts',
  'test/fault-matrix-event-loop.test.ts',
  'test/fault-matrix-input.test.ts',
  'test/fault-matrix-netns.test.ts',
  'test/fault-matrix-node-load.test.ts',
  'test/fault-matrix-safety.test.ts',
  'test/fault-matrix-sigterm.test.ts',
  'test/fault-matrix-upstream.test.ts',
  'test/fd-exhaustion.test.ts',
  'test/limits-leases.test.ts',
  'test/limits-replica-killed.test.ts',
  'test/limits-shared-redis.test.ts',
  'test/stream-finaliser.test.ts',
]);
