import type { GatewayConfig } from '@infergate/core';

/** The start line's note on who serves the models (docs/design.md: the zero-config start says so). */
export function describeBackends(config: GatewayConfig): string {
  const remote = config.upstreams.filter((upstream) => !upstream.local);
  if (remote.length === 0)
    return 'the embedded local backend serves every catalogue model: zero-config, not a real model';
  const names = remote.map((upstream) => upstream.name).join(', ');
  return config.localBackend
    ? `upstreams: ${names}; the local backend serves the models they do not`
    : `upstreams: ${names}`;
}
