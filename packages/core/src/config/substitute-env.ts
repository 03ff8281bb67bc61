import { formatParamPath } from '../schemas/parse-request-body.js';
import { ConfigError } from './config-file-schema.js';

// `$${NAME}` is the escape for a literal `${NAME}` (as in Docker Compose), so a secret that
// happens to contain `${` can still be written into the file.
const reference = /\$(\$?)\{([^}]*)\}/g;
const variableName = /^[A-Za-z_][A-Za-z0-9_]*$/;

function substituteString(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
  path: readonly PropertyKey[],
): string {
  return text.replace(reference, (whole: string, escaped: string, name: string) => {
    if (escaped === '$') return whole.slice(1);
    const where = formatParamPath(path);
    if (!variableName.test(name))
      throw new ConfigError(
        where,
        `'\${${name}}' is not a valid environment variable reference (write $\${...} for a literal)`,
      );
    const value = env[name];
    if (value === undefined)
      throw new ConfigError(where, `environment variable ${name} is not set`);
    return value;
  });
}

function walk(
  value: unknown,
  env: Readonly<Record<string, string | undefined>>,
  path: PropertyKey[],
): unknown {
  if (typeof value === 'string') return substituteString(value, env, path);
  if (Array.isArray(value)) return value.map((item, index) => walk(item, env, [...path, index]));
  if (typeof value === 'object' && value !== null) {
    // Mapping keys are catalogue ids and field names, never secrets: only values are substituted.
    // fromEntries defines properties, so a `__proto__` key stays a plain key (and fails validation).
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, walk(item, env, [...path, key])]),
    );
  }
  return value;
}

/**
 * Replaces every `${NAME}` in every string of a parsed config value by the environment variable NAME.
 * Pure: the environment is passed in. A variable that is not set is a ConfigError naming it and the
 * field where it was used; a set but empty variable substitutes the empty string.
 */
export function substituteEnv(
  value: unknown,
  env: Readonly<Record<string, string | undefined>>,
): unknown {
  return walk(value, env, []);
}
