/** One row of GET /pricing: a catalogue model's configured price per million tokens. */
export interface Price {
  model: string;
  input_per_million: number;
  output_per_million: number;
  currency: string;
}

/** GET /pricing: models without a configured price are left out. */
export interface PriceList {
  object: 'list';
  data: Price[];
}
