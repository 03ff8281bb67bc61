/**
 * The UTF-8 size of a string without encoding it (a body can be 100 MiB): one byte per ASCII code
 * unit, two up to U+07FF, three for the rest of the BMP, four for a surrogate pair (two code units).
 * A lone surrogate counts three, as TextEncoder writes it (U+FFFD).
 */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (
      unit >= 0xd800 &&
      unit <= 0xdbff &&
      index + 1 < text.length &&
      (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00
    ) {
      bytes += 4;
      index += 1;
    } else bytes += 3;
  }
  return bytes;
}
