import type { GatewayConfig } from '@infergate/core';

/** What the explanation names: the addresses the server and its metrics listen on. */
export type ListenConfig = Pick<GatewayConfig, 'server' | 'metrics'>;

/** A start that cannot go on for a reason the operator fixes; its message is the whole explanation. */
export class StartFailure extends Error {
  override name = 'StartFailure';
}

interface ListenError {
  code: string;
  syscall: string;
  address?: string;
  port?: number;
  hostname?: string;
}

function isListenError(error: unknown): error is ListenError {
  if (typeof error !== 'object' || error === null) return false;
  const { code, syscall } = error as Partial<ListenError>;
  return (
    typeof code === 'string' &&
    (syscall === 'listen' || syscall === 'bind' || syscall === 'getaddrinfo')
  );
}

function hostPort(host: string, port: number | undefined): string {
  const shown = host.includes(':') ? `[${host}]` : host;
  return port === undefined ? shown : `${shown}:${port}`;
}

function explainListenError(error: ListenError, config: ListenConfig): string | undefined {
  // The metrics port is a setting of its own: name the one that needs changing.
  const onMetricsPort =
    error.port !== undefined &&
    error.port === config.metrics?.port &&
    error.port !== config.server.port;
  const portSetting = onMetricsPort
    ? 'metrics.port in the configuration file'
    : 'PORT (or --port, or server.port in the configuration file)';
  const where = hostPort(
    error.address ?? error.hostname ?? config.server.host,
    error.port ?? (onMetricsPort ? config.metrics?.port : config.server.port),
  );
  switch (error.code) {
    case 'EADDRINUSE':
      return `cannot listen on ${where}: the address is already in use by another process; stop that process or choose another port with ${portSetting}`;
    case 'EACCES':
      return `cannot listen on ${where}: permission denied (ports below 1024 need root or the CAP_NET_BIND_SERVICE capability); choose a port from 1024 up with ${portSetting}`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where}: that address is not one of this machine's; set HOST (or --host, or server.host) to one of its addresses, or 0.0.0.0 for all`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot listen on ${where}: the host name does not resolve; set HOST (or --host, or server.host) to an address of this machine`;
    default:
      return undefined;
  }
}

/**
 * One line for a start failure the operator can fix (the address and what to change), or undefined
 * for anything else: that is a bug, and its stack trace is worth more than a sentence.
 */
export function explainStartFailure(error: unknown, config: ListenConfig): string | undefined {
  if (error instanceof StartFailure) return error.message;
  if (isListenError(error)) return explainListenError(error, config);
  return undefined;
}
