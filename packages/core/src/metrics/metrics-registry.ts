type LabelValues = readonly string[];

// Prometheus text format 0.0.4: backslash, double quote and line feed are escaped in label values.
function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function formatNumber(value: number): string {
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return Number.isNaN(value) ? 'NaN' : String(value);
}

function labelText(
  names: readonly string[],
  values: LabelValues,
  extra?: [string, string],
): string {
  const pairs = names.map((name, index) => `${name}="${escapeLabel(values[index] ?? '')}"`);
  if (extra !== undefined) pairs.push(`${extra[0]}="${escapeLabel(extra[1])}"`);
  return pairs.length === 0 ? '' : `{${pairs.join(',')}}`;
}

// One level of the series tree per label: the values lead to the series without a key string built
// per observation (a request records five series).
type SeriesLevel<Series> = Map<string, SeriesLevel<Series> | Series>;

abstract class Metric<Series> {
  // In the order first observed, for rendering.
  protected readonly series: Array<{ values: LabelValues; data: Series }> = [];
  private readonly tree: SeriesLevel<Series> = new Map();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: 'counter' | 'gauge' | 'histogram',
    readonly labelNames: readonly string[],
  ) {}

  protected abstract newSeries(): Series;

  protected seriesFor(values: LabelValues): Series {
    let level = this.tree;
    // A metric without labels keeps its one series under the empty value.
    const last = values.length - 1;
    for (let index = 0; index < last; index += 1) {
      const value = values[index] as string;
      let next = level.get(value) as SeriesLevel<Series> | undefined;
      if (next === undefined) {
        next = new Map();
        level.set(value, next);
      }
      level = next;
    }
    const value = last < 0 ? '' : (values[last] as string);
    let data = level.get(value) as Series | undefined;
    if (data === undefined) {
      data = this.newSeries();
      level.set(value, data);
      this.series.push({ values: [...values], data });
    }
    return data;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} ${this.type}`];
    for (const { values, data } of this.series) this.renderSeries(lines, values, data);
    return `${lines.join('\n')}\n`;
  }

  protected abstract renderSeries(lines: string[], values: LabelValues, data: Series): void;
}

/** A monotonically increasing count; the name ends in `_total`. */
export class Counter extends Metric<{ value: number }> {
  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    super(name, help, 'counter', labelNames);
  }

  protected newSeries(): { value: number } {
    return { value: 0 };
  }

  inc(values: LabelValues = [], amount = 1): void {
    this.seriesFor(values).value += amount;
  }

  protected renderSeries(lines: string[], values: LabelValues, data: { value: number }): void {
    lines.push(`${this.name}${labelText(this.labelNames, values)} ${formatNumber(data.value)}`);
  }
}

export class Gauge extends Metric<{ value: number }> {
  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    super(name, help, 'gauge', labelNames);
    // An unlabelled gauge is shown at 0 from the start, so a scraper sees it before it first moves.
    if (labelNames.length === 0) this.seriesFor([]);
  }

  protected newSeries(): { value: number } {
    return { value: 0 };
  }

  add(amount: number, values: LabelValues = []): void {
    this.seriesFor(values).value += amount;
  }

  set(value: number, values: LabelValues = []): void {
    this.seriesFor(values).value = value;
  }

  protected renderSeries(lines: string[], values: LabelValues, data: { value: number }): void {
    lines.push(`${this.name}${labelText(this.labelNames, values)} ${formatNumber(data.value)}`);
  }
}

interface HistogramSeries {
  counts: number[];
  sum: number;
  count: number;
}

/** Cumulative buckets with upper bounds `buckets` (seconds, for latencies) plus +Inf, sum and count. */
export class Histogram extends Metric<HistogramSeries> {
  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    readonly buckets: readonly number[],
  ) {
    super(name, help, 'histogram', labelNames);
  }

  protected newSeries(): HistogramSeries {
    return { counts: this.buckets.map(() => 0), sum: 0, count: 0 };
  }

  observe(values: LabelValues, value: number): void {
    const data = this.seriesFor(values);
    // Buckets are cumulative when rendered; here each observation lands in its first bucket only.
    const { buckets } = this;
    let index = 0;
    while (index < buckets.length && !(value <= (buckets[index] as number))) index += 1;
    if (index < buckets.length) data.counts[index] = (data.counts[index] ?? 0) + 1;
    data.sum += value;
    data.count += 1;
  }

  protected renderSeries(lines: string[], values: LabelValues, data: HistogramSeries): void {
    let cumulative = 0;
    this.buckets.forEach((bound, index) => {
      cumulative += data.counts[index] ?? 0;
      lines.push(
        `${this.name}_bucket${labelText(this.labelNames, values, ['le', formatNumber(bound)])} ${cumulative}`,
      );
    });
    lines.push(
      `${this.name}_bucket${labelText(this.labelNames, values, ['le', '+Inf'])} ${data.count}`,
    );
    lines.push(`${this.name}_sum${labelText(this.labelNames, values)} ${formatNumber(data.sum)}`);
    lines.push(`${this.name}_count${labelText(this.labelNames, values)} ${data.count}`);
  }
}

/** What a metric is, as its HELP and TYPE lines say: for the reference page. */
export interface MetricDescription {
  name: string;
  type: 'counter' | 'gauge' | 'histogram';
  labelNames: readonly string[];
  help: string;
}

type RegisteredMetric = MetricDescription & { render(): string };

/** The metrics of one gateway, rendered together in Prometheus text format 0.0.4. */
export class MetricsRegistry {
  private readonly metrics: RegisteredMetric[] = [];

  register<Registered extends RegisteredMetric>(metric: Registered): Registered {
    this.metrics.push(metric);
    return metric;
  }

  render(): string {
    return this.metrics.map((metric) => metric.render()).join('');
  }

  describe(): MetricDescription[] {
    return this.metrics.map(({ name, type, labelNames, help }) => ({
      name,
      type,
      labelNames,
      help,
    }));
  }
}
