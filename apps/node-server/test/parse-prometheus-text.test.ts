import { describe, expect, it } from 'vitest';
import { parsePrometheusText } from './parse-prometheus-text.js';

describe('parsePrometheusText (the strict reader the metrics tests use)', () => {
  it('reads samples with escaped labels', () => {
    expect(
      parsePrometheusText('# HELP a_total x\n# TYPE a_total counter\na_total{l="q\\"\\\\\\n"} 2\n'),
    ).toEqual([{ name: 'a_total', labels: { l: 'q"\\\n' }, value: 2 }]);
  });

  it.each([
    ['no final line feed', '# TYPE a counter\na 1'],
    ['a sample outside its family', '# TYPE a counter\nb 1\n'],
    ['a bad value', '# TYPE a counter\na one\n'],
    ['an unterminated label', '# TYPE a counter\na{x="1} 1\n'],
    ['a family declared twice', '# TYPE a counter\na 1\n# TYPE a counter\n'],
    [
      '+Inf bucket unlike _count',
      '# TYPE h histogram\nh_bucket{le="1"} 1\nh_bucket{le="+Inf"} 2\nh_sum 1\nh_count 3\n',
    ],
    [
      'buckets that are not cumulative',
      '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="2"} 1\nh_bucket{le="+Inf"} 2\nh_sum 1\nh_count 2\n',
    ],
  ])('refuses %s', (_name, text) => {
    expect(() => parsePrometheusText(text)).toThrow();
  });
});
