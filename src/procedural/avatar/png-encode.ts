/**
 * Encodes RGBA8 pixels as a PNG (PNG specification, ISO/IEC 15948: signature, IHDR, one IDAT, IEND). The zlib
 * stream uses stored (uncompressed) deflate blocks (RFC 1950 / RFC 1951 §3.2.4), so no compressor is needed and the
 * bytes are the same on every platform; meant for the small textures of generated models, not for large images.
 * @param rgba `Uint8Array(4 · width · height)`, rows top to bottom, straight (not premultiplied) alpha
 * @throws Error if `rgba` does not hold width × height pixels
 */
export function encodePngRgba(width: number, height: number, rgba: Uint8Array): Uint8Array {
  if (rgba.length !== 4 * width * height) throw new Error(`encodePngRgba: expected ${4 * width * height} bytes, got ${rgba.length}`);
  // Each scanline: filter type 0 (None), then the row.
  const raw = new Uint8Array(height * (1 + 4 * width));
  for (let y = 0; y < height; y++) raw.set(rgba.subarray(4 * width * y, 4 * width * (y + 1)), y * (1 + 4 * width) + 1);
  const blockCount = Math.max(1, Math.ceil(raw.length / 65535));
  const zlib = new Uint8Array(2 + raw.length + 5 * blockCount + 4);
  zlib[0] = 0x78; zlib[1] = 0x01;
  let at = 2;
  for (let b = 0; b < blockCount; b++) {
    const start = b * 65535, length = Math.min(65535, raw.length - start);
    zlib[at++] = b === blockCount - 1 ? 1 : 0;
    zlib[at++] = length & 0xff; zlib[at++] = length >>> 8;
    zlib[at++] = ~length & 0xff; zlib[at++] = (~length >>> 8) & 0xff;
    zlib.set(raw.subarray(start, start + length), at);
    at += length;
  }
  writeUint32(zlib, at, adler32(raw));
  const header = new Uint8Array(13);
  writeUint32(header, 0, width); writeUint32(header, 4, height);
  header[8] = 8; header[9] = 6; // 8 bits per channel, RGBA; compression, filter and interlace methods 0.
  const chunks = [chunk('IHDR', header), chunk('IDAT', zlib), chunk('IEND', new Uint8Array(0))];
  const png = new Uint8Array(8 + chunks.reduce((sum, c) => sum + c.length, 0));
  png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let offset = 8;
  for (const c of chunks) { png.set(c, offset); offset += c.length; }
  return png;
}

function writeUint32(out: Uint8Array, at: number, value: number): void {
  out[at] = value >>> 24; out[at + 1] = (value >>> 16) & 0xff; out[at + 2] = (value >>> 8) & 0xff; out[at + 3] = value & 0xff;
}

/** A chunk: length, type, data, CRC-32 of type and data (PNG specification §5.3). */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  writeUint32(out, 0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  writeUint32(out, 8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) {
    crc ^= bytes[i];
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function adler32(bytes: Uint8Array): number {
  let a = 1, b = 0;
  for (let i = 0; i < bytes.length; i++) { a = (a + bytes[i]) % 65521; b = (b + a) % 65521; }
  return ((b << 16) | a) >>> 0;
}
