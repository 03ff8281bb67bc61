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

// Room before the payload for `data:<media type>;base64,`, written once the type is known.
const headRoom = 96;
const firstCapacity = 64 * 1024;
const textEncoder = new TextEncoder();
const asciiDecoder = new TextDecoder();

/**
 * A form's file as the base64 data URL the JSON form of the request would carry, written as the file
 * arrives. Each chunk is encoded at once into one growing buffer of the URL's characters, which
 * becomes the URL's string in a single copy and is released at once: a large image then exists as
 * those characters and the string together only at that copy, never beside its bytes or a list of
 * encoded pieces (the image-edit memory bound, docs/performance.md). The media type is the part's
 * own when it names an image type, else the one the file's first bytes show; a file that shows none
 * is a 400 naming its field.
 */
export class ImageDataUrlWriter {
  private text: Uint8Array;
  private at = headRoom;
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
    /** At least the file's size in bytes when the app knows it (the body's length): one buffer, never grown. */
    sizeHint?: number,
  ) {
    this.text = new Uint8Array(
      headRoom + (sizeHint === undefined ? firstCapacity : Math.ceil(sizeHint / 3) * 4 + 4),
    );
  }

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
      this.append(this.encode(concat(this.carry, chunk.subarray(0, needed))));
      rest = chunk.subarray(needed);
    }
    const whole = rest.byteLength - (rest.byteLength % 3);
    if (whole > 0) this.append(this.encode(rest.subarray(0, whole)));
    // A copy: the chunk's buffer may be reused by the reader once this returns.
    this.carry = rest.slice(whole);
  }

  /** The file's data URL, as one string. */
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
    if (this.carry.byteLength > 0) this.append(this.encode(this.carry));
    const prefix = textEncoder.encode(`data:${mediaType};base64,`);
    if (prefix.byteLength > headRoom)
      throw GatewayError.invalidParameter(
        this.field,
        `Invalid value for '${this.field}': the part's media type is too long.`,
      );
    const start = headRoom - prefix.byteLength;
    this.text.set(prefix, start);
    const dataUrl = asciiDecoder.decode(this.text.subarray(start, this.at));
    release(this.text);
    this.text = new Uint8Array(0);
    return { kind: 'file', name: this.field, dataUrl };
  }

  private append(encoded: string): void {
    if (this.at + encoded.length > this.text.byteLength) {
      const grown = new Uint8Array(Math.max(this.text.byteLength * 2, this.at + encoded.length));
      grown.set(this.text.subarray(0, this.at));
      release(this.text);
      this.text = grown;
    }
    this.at += textEncoder.encodeInto(encoded, this.text.subarray(this.at)).written;
  }
}

/**
 * Gives a buffer's memory back now rather than at the collection of the old generation it has grown
 * old in: ArrayBuffer.prototype.transfer frees it where the runtime has it; elsewhere (Node 20) a
 * transfer to a clone made now hands it to a young object, which the next minor collection frees.
 */
function release(bytes: Uint8Array): void {
  const buffer = bytes.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };
  if (buffer.transfer !== undefined) buffer.transfer(0);
  else structuredClone(buffer, { transfer: [buffer] });
}

function concat(first: Uint8Array, second: Uint8Array): Uint8Array {
  const joined = new Uint8Array(first.byteLength + second.byteLength);
  joined.set(first);
  joined.set(second, first.byteLength);
  return joined;
}
