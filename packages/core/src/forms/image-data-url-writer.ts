import { GatewayError } from '../errors/gateway-error.js';
import type { Base64Encoder } from '../ports/ports.js';
import { encodeBase64 } from '../transforms/encode-float32-base64.js';
import type { FormFile } from './form-part.js';

// What a file's first bytes say it is, for a part sent as application/octet-stream or with no type
// (openai-node sends a file read from disk so): the signatures the gateway reads images by.
const signatures: readonly { mediaType: string; bytes: readonly (number | undefined)[] }[] = [
  { mediaType: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { mediaType: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  { mediaType: 'image/gif', bytes: [0x47, 0x49, 0x46, 0x38] },
  {
    mediaType: 'image/webp',
    // RIFF, four bytes of length, WEBP.
    bytes: [
      0x52,
      0x49,
      0x46,
      0x46,
      undefined,
      undefined,
      undefined,
      undefined,
      0x57,
      0x45,
      0x42,
      0x50,
    ],
  },
];
const headLength = 12;

function sniffMediaType(head: Uint8Array): string | undefined {
  return signatures.find(({ bytes }) =>
    bytes.every((byte, index) => byte === undefined || head[index] === byte),
  )?.mediaType;
}

/**
 * A form's file as the base64 data URL the JSON form of the request would carry, written as the file
 * arrives: each chunk is encoded at once and only the text is kept, so a large image exists as its
 * bytes and its data URL together only chunk by chunk. The media type is the part's own when it names
 * an image type, else the one the file's first bytes show; a file that shows none is a 400 naming its field.
 */
export class ImageDataUrlWriter {
  // The first entry is the data URL's head, known once the file's first bytes are in.
  private readonly pieces: string[] = [''];
  private readonly head = new Uint8Array(headLength);
  private headLength = 0;
  // Base64 encodes three bytes at a time: up to two wait for the next chunk.
  private carry: Uint8Array = new Uint8Array(0);
  private size = 0;

  constructor(
    /** The form field the file came in (`image`, `image[]`, `mask`): errors name it. */
    readonly field: string,
    private readonly mediaType: string | undefined,
    private readonly encode: Base64Encoder = encodeBase64,
  ) {}

  write(chunk: Uint8Array): void {
    if (chunk.byteLength === 0) return;
    this.size += chunk.byteLength;
    if (this.headLength < headLength) {
      const taken = chunk.subarray(0, headLength - this.headLength);
      this.head.set(taken, this.headLength);
      this.headLength += taken.byteLength;
    }
    let rest = chunk;
    if (this.carry.byteLength > 0) {
      const needed = 3 - this.carry.byteLength;
      if (chunk.byteLength < needed) {
        this.carry = concat(this.carry, chunk);
        return;
      }
      this.pieces.push(this.encode(concat(this.carry, chunk.subarray(0, needed))));
      rest = chunk.subarray(needed);
    }
    const whole = rest.byteLength - (rest.byteLength % 3);
    if (whole > 0) this.pieces.push(this.encode(rest.subarray(0, whole)));
    // A copy: the chunk's buffer may be reused by the reader once this returns.
    this.carry = rest.slice(whole);
  }

  /** The file's data URL, joined once into one string. */
  end(): FormFile {
    if (this.size === 0)
      throw GatewayError.invalidParameter(
        this.field,
        `Invalid value for '${this.field}': the file is empty.`,
      );
    const declared = this.mediaType?.split(';')[0]?.trim().toLowerCase() ?? '';
    const mediaType = declared.startsWith('image/')
      ? declared
      : sniffMediaType(this.head.subarray(0, this.headLength));
    if (mediaType === undefined)
      throw GatewayError.invalidParameter(
        this.field,
        `Invalid value for '${this.field}': the file is not a PNG, JPEG, WebP or GIF image.`,
      );
    if (this.carry.byteLength > 0) this.pieces.push(this.encode(this.carry));
    this.pieces[0] = `data:${mediaType};base64,`;
    const dataUrl = this.pieces.join('');
    this.pieces.length = 1;
    return { kind: 'file', name: this.field, dataUrl };
  }
}

function concat(first: Uint8Array, second: Uint8Array): Uint8Array {
  const joined = new Uint8Array(first.byteLength + second.byteLength);
  joined.set(first);
  joined.set(second, first.byteLength);
  return joined;
}
