/** The path of a request target without its query string (handlers and route matching never see the query). */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
