// RFC 7235: the scheme is case-insensitive; RFC 6750 allows one token after one or more spaces.
// The token is any printable ASCII without spaces, which is what a configured key may hold.
const bearer = /^bearer +([\x21-\x7e]+) *$/i;

/** The token of `Authorization: Bearer <token>`, or undefined when the header is absent or malformed. */
export function bearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  return bearer.exec(authorization)?.[1];
}
