import type { EventEmitter } from 'node:events';

/**
 * After a `write()` that returned false: resolves once the stream takes more ('drain'), or once it
 * closed, since a closed stream never drains and the writer must stop waiting to see it. Both
 * listeners go as soon as either fires, so a long run of writes piles up no 'close' listeners.
 */
export function waitForDrain(writable: EventEmitter): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      writable.off('drain', done);
      writable.off('close', done);
      resolve();
    };
    writable.on('drain', done);
    writable.on('close', done);
  });
}
