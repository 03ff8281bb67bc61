import { fnvHash } from '../text/fnv-hash.js';

/**
 * A valid value for a JSON Schema string `format` (the ones zod and the OpenAI clients emit), derived from
 * `seed` so that it is deterministic for the prompt; undefined for a format this backend does not know.
 */
export function formattedString(format: string, seed: string): string | undefined {
  const slug =
    seed
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'local';
  switch (format) {
    case 'date-time':
      return '2026-01-01T00:00:00Z';
    case 'date':
      return '2026-01-01';
    case 'time':
      return '00:00:00Z';
    case 'duration':
      return 'P1D';
    case 'email':
    case 'idn-email':
      return `${slug}@example.com`;
    case 'uri':
    case 'url':
    case 'iri':
      return `https://example.com/${slug}`;
    case 'uri-reference':
    case 'iri-reference':
      return `/${slug}`;
    case 'hostname':
    case 'idn-hostname':
      return `${slug}.example.com`;
    case 'ipv4':
      return '192.0.2.1';
    case 'ipv6':
      return '2001:db8::1';
    case 'uuid':
      return seededUuid(seed);
    default:
      return undefined;
  }
}

/** A version-4-shaped UUID (version nibble 4, variant 8) whose hex digits come from hashing the seed. */
function seededUuid(seed: string): string {
  const hex = [0, 1, 2, 3]
    .map((round) => fnvHash(`${round}|${seed}`).toString(16).padStart(8, '0'))
    .join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
