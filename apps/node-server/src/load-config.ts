import { resolveGatewayConfig, type ResolvedGatewayConfig } from '@infergate/core';
import { readConfigFile, withGeneratedKey } from '@infergate/node-runtime';

export interface LoadedConfig {
  config: ResolvedGatewayConfig;
  /** The key generated because none was configured; the caller prints it once, nothing else shows it. */
  generatedKey: string | undefined;
  /** The file's parsed value (undefined without a file): a reload compares the next file with it. */
  file: unknown;
}

/**
 * The configuration of a start: the `INFERGATE_CONFIG` file (if any) resolved by core with the
 * environment (`INFERGATE_API_KEYS`, `HOST`, `PORT`, `${NAME}` substitution). Throws core's
 * ConfigError or a ConfigFileError, both naming the field at fault.
 */
export async function loadConfig(
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<LoadedConfig> {
  const file = env.INFERGATE_CONFIG;
  const fileValue = file ? await readConfigFile(file) : undefined;
  return { ...withGeneratedKey(resolveGatewayConfig(fileValue, env)), file: fileValue };
}
