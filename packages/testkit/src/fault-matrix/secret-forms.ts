/** Every form of a secret a leak could take (fault-matrix row 7): whole, its first 12 characters, base64. */
export function secretForms(secret: string): string[] {
  return [
    secret,
    secret.slice(0, 12),
    Buffer.from(secret).toString('base64'),
    Buffer.from(`Bearer ${secret}`).toString('base64'),
  ];
}
