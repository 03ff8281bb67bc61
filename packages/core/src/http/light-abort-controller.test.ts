import { describe, expect, it } from 'vitest';
import { LightAbortController } from './light-abort-controller.js';

// Each case runs against Node's AbortController too: the light one must behave as the DOM one does
// wherever the gateway's code (and undici's) could tell them apart.
const controllers = [
  ['AbortController', () => new AbortController()],
  ['LightAbortController', () => new LightAbortController()],
] as const;

describe.each(controllers)('%s', (_name, make) => {
  it('runs each listener once, in order, on the first abort, with the reason set before', () => {
    const controller = make();
    const seen: string[] = [];
    const first = () => seen.push(`first ${String(controller.signal.reason)}`);
    controller.signal.addEventListener('abort', first, { once: true });
    controller.signal.addEventListener('abort', first);
    controller.signal.addEventListener('abort', () =>
      seen.push(`second ${controller.signal.aborted}`),
    );
    expect(controller.signal.aborted).toBe(false);
    controller.abort('gone');
    controller.abort('again');
    expect(seen).toEqual(['first gone', 'second true']);
    expect(controller.signal.reason).toBe('gone');
  });

  it('skips a listener removed before the abort or by an earlier listener, and one added after', () => {
    const controller = make();
    const seen: string[] = [];
    const removed = () => seen.push('removed');
    const late = () => seen.push('late');
    controller.signal.addEventListener('abort', removed);
    controller.signal.removeEventListener('abort', removed);
    controller.signal.addEventListener('abort', () =>
      controller.signal.removeEventListener('abort', late),
    );
    controller.signal.addEventListener('abort', late);
    controller.signal.addEventListener('abort', () =>
      controller.signal.addEventListener('abort', () => seen.push('added during')),
    );
    controller.abort();
    controller.signal.addEventListener('abort', () => seen.push('added after'));
    expect(seen).toEqual([]);
  });

  it('gives an AbortError DOMException when aborted without a reason', () => {
    const controller = make();
    controller.abort();
    expect(controller.signal.reason).toBeInstanceOf(DOMException);
    expect((controller.signal.reason as DOMException).name).toBe('AbortError');
  });
});

describe('LightAbortController', () => {
  it('runs the other listeners when one throws, and throws its error again from a microtask', async () => {
    const controller = new LightAbortController();
    const seen: string[] = [];
    controller.signal.addEventListener('abort', () => {
      throw new Error('listener failed');
    });
    controller.signal.addEventListener('abort', () => seen.push('after'));
    const thrown = new Promise<unknown>((resolve) => {
      const original = globalThis.queueMicrotask;
      globalThis.queueMicrotask = (task) => {
        globalThis.queueMicrotask = original;
        try {
          task();
        } catch (error) {
          resolve(error);
        }
      };
    });
    controller.abort();
    expect(seen).toEqual(['after']);
    expect((await thrown) as Error).toHaveProperty('message', 'listener failed');
  });
});
