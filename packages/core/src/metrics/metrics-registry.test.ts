import { describe, expect, it } from 'vitest';
import { Counter, Histogram, MetricsRegistry } from './metrics-registry.js';

describe('MetricsRegistry', () => {
  it('escapes label values as the text format requires', () => {
    const registry = new MetricsRegistry();
    registry.register(new Counter('x_total', 'help', ['label'])).inc(['a\\b"c\nd']);
    expect(registry.render()).toBe(
      '# HELP x_total help\n# TYPE x_total counter\nx_total{label="a\\\\b\\"c\\nd"} 1\n',
    );
  });

  it('renders cumulative histogram buckets, +Inf, sum and count', () => {
    const registry = new MetricsRegistry();
    const histogram = registry.register(new Histogram('h_seconds', 'help', [], [0.1, 1]));
    histogram.observe([], 0.05);
    histogram.observe([], 0.5);
    histogram.observe([], 5);
    expect(registry.render().split('\n').slice(2, 7)).toEqual([
      'h_seconds_bucket{le="0.1"} 1',
      'h_seconds_bucket{le="1"} 2',
      'h_seconds_bucket{le="+Inf"} 3',
      'h_seconds_sum 5.55',
      'h_seconds_count 3',
    ]);
  });
});
