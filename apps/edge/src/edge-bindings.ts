/**
 * What the edge app reads from its environment: Workers bindings (vars and secrets) or process.env.
 * Every other string binding is available to `${NAME}` substitution in the configuration.
 */
export interface EdgeBindings {
  /** Comma-separated API keys (a Workers secret). */
  INFERGATE_API_KEYS?: string;
  /** The configuration file's content as JSON (same format as the node-server's INFERGATE_CONFIG file). */
  INFERGATE_CONFIG_JSON?: string;
  /** Where the upstreams marked `local` (the zero-config local backend) are reached, e.g. `http://127.0.0.1:8000`. */
  INFERGATE_LOCAL_BACKEND_URL?: string;
  /** The request lines' level: trace, debug, info (the default), warn, error or silent. */
  LOG_LEVEL?: string;
  [name: string]: unknown;
}
