import type { Hono } from 'hono';
import { createGateway, type Gateway, type GatewayConfig } from '@infergate/core';
import {
  createFetchTransport,
  createGatewayPorts,
  type PortsConfig,
  type Transport,
} from '@infergate/upstream';
import { createEdgeApp, type EdgeAppOptions } from './create-edge-app.js';

export interface EdgeGatewayOptions extends EdgeAppOptions {
  /** How the upstreams marked `local` are reached when they have no URL of their own (Node: in-process). */
  localTransport?: Transport | undefined;
}

export interface EdgeGateway {
  app: Hono;
  gateway: Gateway;
}

/** Upstreams marked `local` that nothing can reach: no in-process backend and no INFERGATE_LOCAL_BACKEND_URL. */
export function unreachableLocalUpstreams(
  config: GatewayConfig,
  options: EdgeGatewayOptions,
): string[] {
  if (options.localTransport) return [];
  return config.upstreams
    .filter((upstream) => upstream.local && new URL(upstream.url).hostname.endsWith('.invalid'))
    .map((upstream) => upstream.name);
}

/** The Hono app and core's gateway for a configuration: upstream's fetch transport for every network upstream. */
export function createEdgeGateway(
  config: PortsConfig,
  options: EdgeGatewayOptions = {},
): EdgeGateway {
  // One transport for every network upstream; fetch pools connections itself.
  const network = createFetchTransport();
  const { localTransport } = options;
  const ports = createGatewayPorts(config, {
    transportFor: (upstream) => (upstream.local && localTransport ? localTransport : network),
  });
  const gateway = createGateway({
    config,
    ports,
    ...(config.keyEntries === undefined ? {} : { keyEntries: config.keyEntries }),
  });
  return { app: createEdgeApp(gateway, options), gateway };
}
