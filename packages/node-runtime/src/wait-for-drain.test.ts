import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { waitForDrain } from './wait-for-drain.js';

describe('waitForDrain', () => {
  it.each(['drain', 'close'])("resolves on '%s' and leaves no listener behind", async (event) => {
    const writable = new EventEmitter();
    const waited = waitForDrain(writable);
    writable.emit(event);
    await waited;
    expect(writable.listenerCount('drain') + writable.listenerCount('close')).toBe(0);
  });

  it('waits while neither has come', async () => {
    const writable = new EventEmitter();
    let settled = false;
    void waitForDrain(writable).then(() => {
      settled = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    writable.emit('drain');
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(true);
  });
});
