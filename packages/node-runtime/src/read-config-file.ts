import { readFile } from 'node:fs/promises';
import { extname, isAbsolute, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';

/** A config file that cannot be read or parsed; `path` names the setting at fault, as core's ConfigError does. */
export class ConfigFileError extends Error {
  readonly path: string;

  constructor(path: string, message: string, options?: { cause?: unknown }) {
    super(`${path}: ${message}`, options);
    this.name = 'ConfigFileError';
    this.path = path;
  }
}

/** The raw value of an `INFERGATE_CONFIG` file: YAML (`.yaml`, `.yml`) or JSON (`.json`), by extension. */
export async function readConfigFile(file: string): Promise<unknown> {
  const extension = extname(file).toLowerCase();
  if (extension !== '.json' && extension !== '.yaml' && extension !== '.yml') {
    throw new ConfigFileError(
      'INFERGATE_CONFIG',
      `${file}: the file must end in .yaml, .yml or .json.`,
    );
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? 'no such file'
        : (error as Error).message;
    // A relative path is read from the directory the gateway was started in, which a script may have chosen.
    const where = isAbsolute(file) ? file : `${file} (${resolve(file)})`;
    throw new ConfigFileError('INFERGATE_CONFIG', `${where}: cannot be read (${reason}).`, {
      cause: error,
    });
  }
  try {
    return extension === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new ConfigFileError(
      'INFERGATE_CONFIG',
      `${file}: not valid ${extension === '.json' ? 'JSON' : 'YAML'}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}

/**
 * For an entry point that reads its configuration as JSON from the environment (the edge app on
 * Node): the file INFERGATE_CONFIG names, parsed and put in INFERGATE_CONFIG_JSON, so that SIGHUP
 * can read it again. Undefined without a file; a ConfigFileError when both are set.
 */
export async function configFileIntoJsonBinding(env: Record<string, unknown>): Promise<unknown> {
  const file = env.INFERGATE_CONFIG;
  if (typeof file !== 'string' || file === '') return undefined;
  if (env.INFERGATE_CONFIG_JSON)
    throw new ConfigFileError('INFERGATE_CONFIG', 'set it or INFERGATE_CONFIG_JSON, not both.');
  const value = await readConfigFile(file);
  env.INFERGATE_CONFIG_JSON = JSON.stringify(value);
  return value;
}
