// undici without a dependency of testkit's own: the copy @infergate/upstream uses (the same version the
// gateway runs), resolved from that package's folder.
import { createRequire } from 'node:module';
import { URL } from 'node:url';

const require = createRequire(new URL('../../upstream/package.json', import.meta.url));

/** @type {typeof import('undici')} */
export const undici = require('undici');
