const decoder = new TextDecoder();

/** A result body as text, whichever form the handler wrote it in (tests and logs read it this way). */
export function bodyText(body: string | Uint8Array): string {
  return typeof body === 'string' ? body : decoder.decode(body);
}
