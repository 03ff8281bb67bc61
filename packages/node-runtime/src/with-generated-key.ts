import { generateApiKey } from './generate-api-key.js';

interface KeyedConfig {
  keys: readonly string[];
  keyEntries: readonly { key: string; name?: string | undefined }[];
}

/**
 * A start's configuration with a key generated when none is configured (128 random bits, named
 * `generated`), so that a zero-config gateway is never open to all; the caller shows it once
 * (printGeneratedKey) and nothing else does.
 */
export function withGeneratedKey<Config extends KeyedConfig>(
  config: Config,
): { config: Config; generatedKey: string | undefined } {
  if (config.keys.length > 0) return { config, generatedKey: undefined };
  const generatedKey = generateApiKey();
  return {
    config: {
      ...config,
      keys: [generatedKey],
      keyEntries: [{ key: generatedKey, name: 'generated' }],
    },
    generatedKey,
  };
}
