import type { GatewayConfig } from '../config/gateway-config.js';
import { AdmissionGate } from './admission-gate.js';

// One gate per gateway: an app builds its deps once from one resolved config object, so the config
// identifies the gateway without any app having to wire a gate through (both apps get the cap).
const gates = new WeakMap<GatewayConfig, AdmissionGate>();

/** The admission gate of the gateway running with this configuration, created on first use. */
export function admissionGateFor(config: GatewayConfig): AdmissionGate {
  let gate = gates.get(config);
  if (gate === undefined) {
    gate = new AdmissionGate(config.limits.maxConcurrentRequests);
    gates.set(config, gate);
  }
  return gate;
}
