/** How big leases may grow (config `redis.accuracy_percent`, `redis.replicas`, `redis.lease_ms`). */
export interface LeaseSizing {
  accuracyPercent: number;
  replicas: number;
  leaseMs: number;
}

/**
 * The most of a limit one replica may hold unused: accuracy_percent of the limit shared among the
 * replicas, at least 1 so that small limits still get leases (then the others can be refused early by
 * one per replica); 0 when accuracy_percent is 0, where every decision is Redis's.
 */
export function leaseCap(limit: number | undefined, sizing: LeaseSizing): number {
  if (limit === undefined || sizing.accuracyPercent <= 0) return 0;
  return Math.max(1, Math.floor((limit * sizing.accuracyPercent) / 100 / sizing.replicas));
}

/**
 * What a lease should hold beyond the requests waiting for it: what the key used on this replica in the
 * last lease_ms (so that it lasts about that long), up to the cap. A quiet key holds next to nothing.
 */
export function leaseTarget(
  limit: number | undefined,
  sizing: LeaseSizing,
  recentUse: number,
): number {
  return Math.min(leaseCap(limit, sizing), recentUse);
}
