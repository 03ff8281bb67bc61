/** Core's route table writes path parameters as `{name}`; Hono's router expects `:name`. */
export function toHonoPath(path: string): string {
  return path.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, ':$1');
}
