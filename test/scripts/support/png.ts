/**
 * Decodes the PNG files Chromium writes (8-bit RGB or RGBA, not interlaced) into RGBA pixels,
 * so that a test can look at a screenshot.
 */
import { Buffer } from "node:buffer";
import { inflateSync } from "node:zlib";

export interface Image {
  width: number;
  height: number;
  /** RGBA, 4 bytes per pixel, row by row. */
  pixels: Uint8Array;
}

export function decodePng(file: Uint8Array): Image {
  const bytes = Buffer.from(file);
  if (bytes.readUInt32BE(0) !== 0x89504e47) throw new Error("Not a PNG file");
  let offset = 8;
  let width = 0, height = 0, colorType = 0;
  const data: Buffer[] = [];
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString("latin1", offset + 4, offset + 8);
    const body = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      [width, height, colorType] = [body.readUInt32BE(0), body.readUInt32BE(4), body[9]];
      if (body[8] !== 8 || (colorType !== 2 && colorType !== 6) || body[12] !== 0) {
        throw new Error(`Unsupported PNG: bit depth ${body[8]}, colour type ${colorType}, interlace ${body[12]}`);
      }
    } else if (type === "IDAT") data.push(body);
    offset += 12 + length;
  }
  const channels = colorType === 6 ? 4 : 3;
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const rows = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) unfilter(raw, y, stride, channels, rows);
  if (channels === 4) return { width, height, pixels: rows };
  const pixels = new Uint8Array(width * height * 4);
  for (let i = 0, j = 0; i < width * height; i++, j += 3) {
    pixels[i * 4] = rows[j];
    pixels[i * 4 + 1] = rows[j + 1];
    pixels[i * 4 + 2] = rows[j + 2];
    pixels[i * 4 + 3] = 255;
  }
  return { width, height, pixels };
}

/**
 * Undoes row `y`'s PNG filter into `out`. One loop per filter type, chosen once per row: a
 * tall screenshot has tens of millions of bytes, and a choice made per byte costs seconds.
 */
function unfilter(raw: Buffer, y: number, stride: number, bpp: number, out: Uint8Array) {
  const filter = raw[y * (stride + 1)];
  const src = y * (stride + 1) + 1;
  const row = y * stride;
  const prev = row - stride;
  const up = y > 0;
  switch (filter) {
    case 0:
      for (let x = 0; x < stride; x++) out[row + x] = raw[src + x];
      return;
    case 1:
      for (let x = 0; x < stride; x++) out[row + x] = (raw[src + x] + (x >= bpp ? out[row + x - bpp] : 0)) & 0xff;
      return;
    case 2:
      for (let x = 0; x < stride; x++) out[row + x] = (raw[src + x] + (up ? out[prev + x] : 0)) & 0xff;
      return;
    case 3:
      for (let x = 0; x < stride; x++) {
        const a = x >= bpp ? out[row + x - bpp] : 0;
        const b = up ? out[prev + x] : 0;
        out[row + x] = (raw[src + x] + ((a + b) >> 1)) & 0xff;
      }
      return;
    case 4:
      for (let x = 0; x < stride; x++) {
        const a = x >= bpp ? out[row + x - bpp] : 0;
        const b = up ? out[prev + x] : 0;
        const c = x >= bpp && up ? out[prev + x - bpp] : 0;
        out[row + x] = (raw[src + x] + paeth(a, b, c)) & 0xff;
      }
      return;
    default:
      throw new Error(`Unknown PNG filter ${filter} on row ${y}`);
  }
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}
