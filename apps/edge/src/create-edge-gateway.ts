import type { Hono } from 'hono';
import { createGateway, type Gateway, type GatewayConfig } from '@infergate/core';
import { createFetchTransport, createGatewayPorts, type PortsConfig, type Transport } from '@infergate/upstream';
import type { FetchBodyAdmission } from '@infergate/node-runtime';
import { createEdgeApp } from './create-edge-app.js';

export interface EdgeGatewayOptions {
  /** How the upstreams marked `local` are reached when they have no URL of their own (Node: in-process). */
  localTransport?: Transport;
  /**
   * Aborting it aborts every running request (their streams end with the terminal error event). Node
   * only: in workerd a signal made outside a request cannot be touched from another request's handler.
   */
  shutdown?: AbortSignal;
  /** The in-flight body budget and body idle limit (Node: node-runtime's createFetchBodyAdmission); none in workerd. */
  admitBody?: FetchBodyAdmission;
}

export interface EdgeGateway {
  app: Hono;
  gateway: Gateway;
}

/** Upstreams marked `local` that nothing can reach: no in-process backend and no INFERGATE_LOCAL_BACKEND_URL. */
export function unreachableLocalUpstreams(config: GatewayConfig, options: EdgeGatewayOptions): string[] {
  if (options.localTransport) return [];
  return config.upstreams.filter((upstream) => upstream.local && new URL(upstream.url).hostname.endsWith('.invalid')).map((upstream) => upstream.name);
}

/** The Hono app and core's gateway for a configuration: upstream's fetch transport for every network upstream. */
export function createEdgeGateway(config: PortsConfig, options: EdgeGatewayOptions = {}): EdgeGateway {
  // One transport for every network upstream; fetch pools connections itself.
  const network = createFetchTransport();
  const { localTransport } = options;
  const ports = createGatewayPorts(config, { transportFor: (upstream) => (upstream.local && localTransport ? localTransport : network) });
  const gateway = createGateway({ config, ports });
  return { app: createEdgeApp(gateway, options.shutdown, options.admitBody), gateway };
}
