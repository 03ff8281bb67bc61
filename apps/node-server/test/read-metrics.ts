import { parsePrometheusText, type PrometheusSample } from './parse-prometheus-text.js';

/** GET /metrics, read strictly as Prometheus text format 0.0.4 (a malformed exposition throws). */
export async function readMetrics(baseUrl: string, key: string): Promise<PrometheusSample[]> {
  const response = await fetch(`${baseUrl}/metrics`, {
    headers: { authorization: `Bearer ${key}` },
  });
  if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status}`);
  if (!(response.headers.get('content-type') ?? '').startsWith('text/plain; version=0.0.4'))
    throw new Error('not the Prometheus text format');
  return parsePrometheusText(await response.text());
}

/** The value of the sample with this exact name and these labels, 0 when it does not exist yet. */
export function metricValue(
  samples: readonly PrometheusSample[],
  name: string,
  labels: Record<string, string> = {},
): number {
  const wanted = Object.entries(labels);
  const sample = samples.find(
    (candidate) =>
      candidate.name === name &&
      wanted.every(([key, value]) => candidate.labels[key] === value) &&
      Object.keys(candidate.labels).length === wanted.length,
  );
  return sample?.value ?? 0;
}
