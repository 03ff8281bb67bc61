import { setFlagsFromString } from 'node:v8';

/**
 * Turns off V8's allocation-site pretenuring: after a burst V8 would allocate request-scoped objects
 * straight in the old generation for good, and the young objects they point to would be promoted until
 * the next full collection, where nearly everything here dies with its request. V8 reads the flag when
 * it decides, so setting it at start takes effect (docs/performance.md).
 */
export function keepRequestObjectsYoung(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
