// fault-matrix row 6: wrong keys that share 0 or 31 leading characters with a real key, sent one at a
// time over one keep-alive connection and interleaved, so that drift hits both alike. A compare that
// stops at the first differing character would answer the 31-character key later.
import { performance } from 'node:perf_hooks';
import { undici } from './load-undici.mjs';
import { median } from './stats.mjs';

export async function measureAuthRejections({ origin, realKey, perKey, warmup }) {
  const flip = (character) => (character === 'x' ? 'y' : 'x');
  const sharing0 = flip(realKey[0]) + realKey.slice(1);
  const sharing31 = realKey.slice(0, 31) + flip(realKey[31]) + realKey.slice(32);
  const pool = new undici.Pool(origin, { connections: 1, pipelining: 1 });
  const samples = { sharing0: [], sharing31: [] };
  let errors = 0;
  const send = async (key, into) => {
    const sent = performance.now();
    const response = await pool.request({
      path: '/v1/models',
      method: 'GET',
      headers: { authorization: `Bearer ${key}` },
    });
    await response.body.dump();
    const elapsed = performance.now() - sent;
    if (response.statusCode !== 401) errors += 1;
    into?.push(elapsed);
  };
  for (let index = 0; index < warmup; index += 1) {
    await send(sharing0);
    await send(sharing31);
  }
  for (let index = 0; index < perKey; index += 1) {
    // Alternate which goes first, so that neither always follows the other.
    if (index % 2 === 0) {
      await send(sharing0, samples.sharing0);
      await send(sharing31, samples.sharing31);
    } else {
      await send(sharing31, samples.sharing31);
      await send(sharing0, samples.sharing0);
    }
  }
  await pool.close();
  const medianUs0 = median(samples.sharing0) * 1000;
  const medianUs31 = median(samples.sharing31) * 1000;
  return { perKey, errors, medianUs0, medianUs31, differenceUs: medianUs31 - medianUs0 };
}
