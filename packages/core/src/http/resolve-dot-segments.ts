// `/.`, `/..` and their percent-encoded forms (`%2e`), which a URL parser resolves as dots.
const dotSegment = /\/(?:\.|%2e)/i;

/**
 * A request target with its `.` and `..` segments resolved as a WHATWG URL parser resolves them (and
 * so as Workers and the edge app see a path), so that both apps route `/v1/x/../models` alike. A
 * target without one is returned as it is.
 */
export function resolveDotSegments(target: string): string {
  if (!dotSegment.test(target)) return target;
  const url = new URL(target, 'http://gateway');
  return url.pathname + url.search;
}
