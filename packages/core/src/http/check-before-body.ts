import type { AdmissionGate } from '../admission/admission-gate.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { ApiKeyIdentity } from '../ports/ports.js';
import { bearerToken } from './bearer-token.js';
import type { GatewayDeps, RouteDefinition } from '../ports/handler-types.js';

// application/json with optional parameters (charset=utf-8); nothing else is JSON to this gateway.
const jsonContentType = /^application\/json[ \t]*(?:;.*)?$/i;
// A form's parts are separated by its boundary parameter, which the form parser reads.
const multipartContentType = /^multipart\/form-data[ \t]*(?:;.*)?$/i;

/** Whether a Content-Type header names a multipart form (what the official clients send image edits as). */
export function isMultipartForm(contentType: string | undefined): boolean {
  return contentType !== undefined && multipartContentType.test(contentType.trim());
}
// No coding at all: RFC 9110's identity, or an empty header.
const identityEncoding = /^[ \t]*(?:identity)?[ \t]*$/i;

/** What the checks before the body read: the gateway's ports and its admission cap. */
export interface HeadCheckTarget {
  readonly deps: GatewayDeps;
  readonly admission: AdmissionGate;
}

/**
 * The key a request presents: `Authorization: Bearer <key>`, or on the Messages API's routes also
 * `x-api-key: <key>` (what the Anthropic SDK sends). Two different keys are refused (400), as two
 * Authorization credentials are: which of them to use would be a guess.
 */
export function requestToken(
  route: RouteDefinition,
  header: (name: string) => string | undefined,
): string | undefined {
  const bearer = bearerToken(header('authorization'));
  if (route.envelope !== 'anthropic') return bearer;
  const apiKey = header('x-api-key')?.trim();
  if (apiKey === undefined || apiKey.length === 0) return bearer;
  if (apiKey.includes(',') || (bearer !== undefined && bearer !== apiKey))
    throw GatewayError.multipleAuthorization();
  return apiKey;
}

/** The key of the request, or undefined where the route needs none; a promise only where the key store has to wait. */
export function authenticate(
  route: RouteDefinition,
  header: (name: string) => string | undefined,
  deps: GatewayDeps,
): ApiKeyIdentity | undefined | Promise<ApiKeyIdentity> {
  if (!route.auth) return undefined;
  const token = requestToken(route, header);
  const identity = token === undefined ? undefined : deps.keys.verify(token);
  const check = (found: ApiKeyIdentity | undefined): ApiKeyIdentity => known(route, found);
  return identity instanceof Promise ? identity.then(check) : check(identity);
}

function known(route: RouteDefinition, identity: ApiKeyIdentity | undefined): ApiKeyIdentity {
  if (identity === undefined)
    throw route.envelope === 'anthropic'
      ? GatewayError.unauthorized(
          'Missing or invalid API key. Send it as "x-api-key: <key>" or "Authorization: Bearer <key>".',
        )
      : GatewayError.unauthorized();
  return identity;
}

/**
 * 415 unless a route that takes a body is sent JSON as it is, or a multipart form on a route that
 * takes one. A compressed body (any Content-Encoding
 * but identity) is refused rather than decoded: the body limits count the bytes that arrive, and a
 * few kilobytes of gzip can expand to gigabytes (docs/design.md).
 */
export function checkBodyHeaders(
  route: RouteDefinition,
  header: (name: string) => string | undefined,
): void {
  if (route.bodyLimit === 'none') return;
  const contentType = header('content-type');
  const multipart = route.multipart === true;
  if (
    contentType === undefined ||
    !(jsonContentType.test(contentType.trim()) || (multipart && isMultipartForm(contentType)))
  )
    throw GatewayError.unsupportedMediaType(contentType, multipart);
  const encoding = header('content-encoding');
  if (encoding !== undefined && !identityEncoding.test(encoding))
    throw GatewayError.unsupportedContentEncoding(encoding);
}

/**
 * What a request must pass before a byte of its body is read or counted against the in-flight body
 * budget, in dispatch's order: the admission cap (503 with Retry-After when it is full now; the slot
 * itself is taken by dispatch), the key (401), the JSON content type without a Content-Encoding (415). Throws the refusal, or
 * rejects when the key store had to wait; otherwise the caller's identity (undefined on a route that
 * needs no key), which the app hands to dispatch so that the key is verified once.
 */
export function checkBeforeBody(
  target: HeadCheckTarget,
  route: RouteDefinition,
  header: (name: string) => string | undefined,
): ApiKeyIdentity | undefined | Promise<ApiKeyIdentity | undefined> {
  if (route.bodyLimit !== 'none' && target.admission.full) throw GatewayError.overloaded();
  const identity = authenticate(route, header, target.deps);
  if (identity instanceof Promise)
    return identity.then((known) => {
      checkBodyHeaders(route, header);
      return known;
    });
  checkBodyHeaders(route, header);
  return identity;
}
