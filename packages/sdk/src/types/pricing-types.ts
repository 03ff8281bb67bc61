import type { PriceObject } from '@infergate/core';

/** One row of GET /pricing: a catalogue model's configured price per million tokens. */
export type Price = PriceObject;

/** GET /pricing: models without a configured price are left out. */
export interface PriceList {
  object: 'list';
  data: Price[];
}
