const brand = Symbol.for('infergate.split-data-url');

/**
 * A base64 data URL kept as its media type and its payload, never joined into one string: a form's
 * file reaches the upstream body as its head and its payload side by side, so the URL is never copied
 * whole (the image-edit memory bound: the payload alone is a third larger than the file). `toJSON`
 * is the joined URL, for a serializer that does not know the split.
 */
export class SplitDataUrl {
  readonly [brand] = true;

  constructor(
    /** The image media type, lower-case, as the URL names it. */
    readonly mediaType: string,
    /** The base64 payload (RFC 4648, `=` padding). */
    readonly payload: string,
  ) {}

  /** `data:<media type>;base64,`, the URL before its payload. */
  get head(): string {
    return `data:${this.mediaType};base64,`;
  }

  toJSON(): string {
    return this.head + this.payload;
  }
}

/** Whether a value is a SplitDataUrl, from this copy of core or another. */
export function isSplitDataUrl(value: unknown): value is SplitDataUrl {
  return typeof value === 'object' && value !== null && brand in value;
}

/** An input image as a handler passes it on: the JSON form's data URL, or a form file's split one. */
export interface ImageInput {
  image_url: string | SplitDataUrl;
}
