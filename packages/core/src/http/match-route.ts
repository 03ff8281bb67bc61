import type { GatewayConfig } from '../config/gateway-config.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { RouteDefinition } from '../ports/handler-types.js';

export interface RouteMatch {
  route: RouteDefinition;
  params: Record<string, string>;
}

function segmentsOf(path: string): string[] {
  return path.split('/').slice(1);
}

/** Params of `path` against a `{name}` template, or undefined when it does not fit. */
function matchTemplate(template: string, path: string): Record<string, string> | undefined {
  const wanted = segmentsOf(template);
  const actual = segmentsOf(path);
  if (wanted.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (let index = 0; index < wanted.length; index += 1) {
    const pattern = wanted[index] as string;
    const segment = actual[index] as string;
    if (pattern.startsWith('{') && pattern.endsWith('}')) {
      if (segment.length === 0) return undefined;
      let value: string;
      try {
        value = decodeURIComponent(segment);
      } catch {
        return undefined;
      }
      Object.defineProperty(params, pattern.slice(1, -1), { value, enumerable: true });
    } else if (pattern !== segment) {
      return undefined;
    }
  }
  return params;
}

function literalSegments(template: string): number {
  return segmentsOf(template).filter((segment) => !segment.startsWith('{')).length;
}

/** The `Allow` list of a path's methods: HEAD beside GET, since every GET route answers it too. */
function withHead(methods: readonly string[]): string[] {
  const get = methods.indexOf('GET');
  return get === -1 || methods.includes('HEAD')
    ? [...methods]
    : [...methods.slice(0, get + 1), 'HEAD', ...methods.slice(get + 1)];
}

/**
 * The route for a method and path (the path without its query string), the most literal template
 * winning; HEAD takes the GET route of its path (RFC 9110 9.3.2: the GET's answer without its body,
 * which the apps' HTTP servers leave out). When nothing matches: 404, or 405 with `Allow` when the
 * path exists with other methods.
 */
export function matchRoute(
  table: readonly RouteDefinition[],
  method: string,
  path: string,
): RouteMatch | GatewayError {
  const upper = method.toUpperCase();
  const wanted = upper === 'HEAD' ? 'GET' : upper;
  let best: RouteMatch | undefined;
  const allow: string[] = [];
  for (const route of table) {
    const params = matchTemplate(route.path, path);
    if (params === undefined) continue;
    if (!allow.includes(route.method)) allow.push(route.method);
    if (route.method !== wanted) continue;
    if (best === undefined || literalSegments(route.path) > literalSegments(best.route.path))
      best = { route, params };
  }
  if (best) return best;
  if (allow.length > 0) return GatewayError.methodNotAllowed(upper, path, withHead(allow));
  return GatewayError.routeNotFound(upper, path);
}

/** The methods the table serves on a path (the `Allow` list), in table order; empty for an unknown path. */
export function methodsOf(table: readonly RouteDefinition[], path: string): string[] {
  const methods: string[] = [];
  for (const route of table)
    if (!methods.includes(route.method) && matchTemplate(route.path, path) !== undefined)
      methods.push(route.method);
  return methods;
}

/** The body limit of a route in bytes; 0 for routes that take no body. */
export function bodyLimitBytes(route: RouteDefinition, config: GatewayConfig): number {
  switch (route.bodyLimit) {
    case 'json':
      return config.limits.bodyJsonBytes;
    case 'image':
      return config.limits.bodyImageBytes;
    default:
      return 0;
  }
}
