/** One sample line of a Prometheus text exposition. */
export interface PrometheusSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const sampleLine = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: (-?\d+))?$/;
const labelPair = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(?:,|$)/;
const metricTypes = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

function parseLabels(text: string, line: number): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = text;
  while (rest.length > 0) {
    const match = labelPair.exec(rest);
    if (match === null) throw new Error(`line ${line}: malformed labels '${text}'`);
    const [whole, name, raw] = match as unknown as [string, string, string];
    if (Object.hasOwn(labels, name)) throw new Error(`line ${line}: label ${name} twice`);
    labels[name] = raw.replace(/\\(["\\n])/g, (_escape, character: string) =>
      character === 'n' ? '\n' : character,
    );
    rest = rest.slice(whole.length);
  }
  return labels;
}

function parseValue(text: string, line: number): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === 'NaN') return NaN;
  if (!/^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/.test(text))
    throw new Error(`line ${line}: '${text}' is not a number`);
  return Number(text);
}

/**
 * A strict reader of the Prometheus text format 0.0.4 (what a scraper accepts): every sample belongs to
 * the family of the TYPE line before it, families are declared once and not interleaved, label values
 * use only the three escapes, counters are not negative, and each histogram's buckets are cumulative
 * with the +Inf bucket equal to its _count. Throws on the first violation.
 */
export function parsePrometheusText(text: string): PrometheusSample[] {
  if (!text.endsWith('\n')) throw new Error('the exposition must end with a line feed');
  const samples: PrometheusSample[] = [];
  const declared = new Map<string, string>();
  let family: { name: string; type: string } | undefined;
  text
    .slice(0, -1)
    .split('\n')
    .forEach((content, index) => {
      const line = index + 1;
      if (content.startsWith('# TYPE ')) {
        const [name, type] = content.slice(7).split(' ');
        if (name === undefined || type === undefined || !metricTypes.has(type))
          throw new Error(`line ${line}: bad TYPE line`);
        if (declared.has(name)) throw new Error(`line ${line}: ${name} declared twice`);
        declared.set(name, type);
        family = { name, type };
        return;
      }
      if (content.startsWith('#')) return;
      const match = sampleLine.exec(content);
      if (match === null) throw new Error(`line ${line}: not a sample line: '${content}'`);
      const name = match[1] as string;
      const suffixes = family?.type === 'histogram' ? ['_bucket', '_sum', '_count'] : [''];
      if (family === undefined || !suffixes.some((suffix) => name === `${family?.name}${suffix}`))
        throw new Error(`line ${line}: ${name} outside its family`);
      const sample = {
        name,
        labels: parseLabels(match[2] ?? '', line),
        value: parseValue(match[3] as string, line),
      };
      if (family.type === 'counter' && !(sample.value >= 0))
        throw new Error(`line ${line}: negative counter`);
      samples.push(sample);
    });
  checkHistograms(samples, declared);
  return samples;
}

function checkHistograms(
  samples: readonly PrometheusSample[],
  declared: ReadonlyMap<string, string>,
): void {
  for (const [name, type] of declared) {
    if (type !== 'histogram') continue;
    const series = new Map<string, { buckets: number[]; infinite?: number; count?: number }>();
    const keyOf = (labels: Record<string, string>) =>
      JSON.stringify(
        Object.entries(labels)
          .filter(([key]) => key !== 'le')
          .sort(),
      );
    for (const sample of samples) {
      const entry = series.get(keyOf(sample.labels)) ?? { buckets: [] };
      if (sample.name === `${name}_bucket`) {
        if (sample.labels.le === '+Inf') entry.infinite = sample.value;
        else entry.buckets.push(sample.value);
      } else if (sample.name === `${name}_count`) entry.count = sample.value;
      else continue;
      series.set(keyOf(sample.labels), entry);
    }
    for (const [labels, entry] of series) {
      if (
        entry.buckets.some(
          (value, index) => index > 0 && value < (entry.buckets[index - 1] as number),
        )
      )
        throw new Error(`${name}${labels}: buckets are not cumulative`);
      if (entry.infinite === undefined || entry.infinite !== entry.count)
        throw new Error(`${name}${labels}: +Inf bucket and _count differ`);
    }
  }
}
