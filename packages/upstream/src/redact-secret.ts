/**
 * Removes an upstream's API key from text the upstream sent back. A misconfigured or hostile model
 * server may echo the Authorization header into an error message (fault-matrix row 7), and core
 * passes 4xx messages on to clients: the key must be gone before that text leaves this package.
 * The key's base64 form is removed too, since Basic-style echoes carry it encoded.
 */
export function redactSecret(text: string, secret: string | undefined): string {
  if (secret === undefined || secret.length < 4) return text;
  let out = text.split(secret).join('[redacted]');
  const encoded = btoa(String.fromCharCode(...new TextEncoder().encode(secret)));
  out = out.split(encoded).join('[redacted]');
  // Encoders may drop the padding of the base64 form.
  const unpadded = encoded.replace(/=+$/, '');
  if (unpadded !== encoded) out = out.split(unpadded).join('[redacted]');
  return out;
}
