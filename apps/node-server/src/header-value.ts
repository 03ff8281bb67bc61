import type { IncomingHttpHeaders } from 'node:http';

/** One header as a string; repeated headers are joined as RFC 9110 allows for list-valued fields. */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}
