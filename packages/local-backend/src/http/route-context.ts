import type { LocalBackendOptions } from '../local-backend-options.js';
import type { ModelRegistry } from '../models/model-registry.js';

/** What every route handler gets besides the request. */
export interface RouteContext {
  registry: ModelRegistry;
  options: LocalBackendOptions;
}
