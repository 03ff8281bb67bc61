import { GatewayError } from '../errors/gateway-error.js';

// RFC 7235: the scheme is case-insensitive; RFC 6750 allows one token after one or more spaces.
// The token is any printable ASCII without spaces, which is what a configured key may hold.
const bearer = /^bearer +([\x21-\x7e]+) *$/i;

/**
 * The token of `Authorization: Bearer <token>`, or undefined when the header is absent or malformed.
 * Throws 400 `multiple_authorization` when the value holds more than one credential: a repeated
 * header reaches core joined by a comma (RFC 9110 5.3), and which of them to use would be a guess.
 */
export function bearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const token = bearer.exec(authorization)?.[1];
  if (token === undefined && authorization.includes(','))
    throw GatewayError.multipleAuthorization();
  return token;
}
