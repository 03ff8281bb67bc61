/** The upstream's URL (an origin, possibly with a base path) joined with a request path, one slash between. */
export function joinUrl(origin: string, path: string): string {
  return `${origin.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
