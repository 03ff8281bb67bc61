import { GatewayError } from '../errors/gateway-error.js';
import type { Base64Encoder } from '../ports/ports.js';
import { encodeBase64 } from '../transforms/encode-float32-base64.js';
import type { FormFile } from '../ports/form-part.js';
import { SplitDataUrl } from '../images/split-data-url.js';

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

const firstCapacity = 64 * 1024;

/**
 * A form's file as the base64 data URL the JSON form of the request would carry, kept split
 * (SplitDataUrl). The file's bytes are gathered into one buffer as they arrive (sized from the body's
 * length when the app knows it, so never grown) and encoded once at its end, and the buffer is handed
 * back at once: a large image then exists as its bytes and its base64 together only for that one
 * encoding (the image-edit memory bound). The media type is the part's own when it names an image
 * type, else the one the file's first bytes show; a file that shows none is a 400 naming its field.
 */
export class ImageDataUrlWriter {
  private bytes: Uint8Array;
  private size = 0;

  constructor(
    /** The form field the file came in (`image`, `image[]`, `mask`): errors name it. */
    readonly field: string,
    private readonly mediaType: string | undefined,
    private readonly encode: Base64Encoder = encodeBase64,
    /** At least the file's size in bytes when the app knows it (the body's length). */
    sizeHint?: number,
  ) {
    this.bytes = new Uint8Array(sizeHint ?? firstCapacity);
  }

  write(chunk: Uint8Array): void {
    if (this.size + chunk.byteLength > this.bytes.byteLength) {
      const grown = new Uint8Array(
        Math.max(this.bytes.byteLength * 2, this.size + chunk.byteLength),
      );
      grown.set(this.bytes.subarray(0, this.size));
      release(this.bytes);
      this.bytes = grown;
    }
    this.bytes.set(chunk, this.size);
    this.size += chunk.byteLength;
  }

  /** The file's data URL, its payload encoded in one pass. */
  end(): FormFile {
    const bytes = this.bytes.subarray(0, this.size);
    if (bytes.byteLength === 0)
      throw GatewayError.invalidParameter(
        this.field,
        `Invalid value for '${this.field}': the file is empty.`,
      );
    const declared = this.mediaType?.split(';')[0]?.trim().toLowerCase() ?? '';
    const mediaType = declared.startsWith('image/')
      ? declared
      : sniffMediaType(bytes.subarray(0, headLength));
    if (mediaType === undefined)
      throw GatewayError.invalidParameter(
        this.field,
        `Invalid value for '${this.field}': the file is not a PNG, JPEG, WebP or GIF image.`,
      );
    const payload = this.encode(bytes);
    release(this.bytes);
    this.bytes = new Uint8Array(0);
    return { kind: 'file', name: this.field, dataUrl: new SplitDataUrl(mediaType, payload) };
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
