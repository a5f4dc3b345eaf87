/**
 * Float32Array <-> base64, little-endian, with no Node Buffer (src/core also runs in the browser). Checkpoints
 * store weights this way: a quarter of the size of a JSON number array, and exact.
 */
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const LOOKUP = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) LOOKUP[ALPHABET.charCodeAt(i)] = i;

function encodeBytes(bytes: Uint8Array): string {
  const parts: string[] = [];
  let chunk = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const b0 = bytes[i] as number;
    const b1 = i + 1 < bytes.length ? (bytes[i + 1] as number) : 0;
    const b2 = i + 2 < bytes.length ? (bytes[i + 2] as number) : 0;
    const n = (b0 << 16) | (b1 << 8) | b2;
    chunk += ALPHABET[(n >> 18) & 63];
    chunk += ALPHABET[(n >> 12) & 63];
    chunk += i + 1 < bytes.length ? ALPHABET[(n >> 6) & 63] : "=";
    chunk += i + 2 < bytes.length ? ALPHABET[n & 63] : "=";
    // Flush now and then: one huge string built by += is slow in some engines.
    if (chunk.length >= 8192) {
      parts.push(chunk);
      chunk = "";
    }
  }
  parts.push(chunk);
  return parts.join("");
}

function decodeBytes(text: string): Uint8Array {
  if (text.length % 4 !== 0) throw new Error(`base64: length ${text.length} is not a multiple of 4`);
  const padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
  const out = new Uint8Array((text.length / 4) * 3 - padding);
  let o = 0;
  for (let i = 0; i < text.length; i += 4) {
    let n = 0;
    for (let k = 0; k < 4; k++) {
      const ch = text.charCodeAt(i + k);
      const v = ch === 61 ? 0 : ch < 128 ? (LOOKUP[ch] as number) : -1;
      if (v < 0) throw new Error(`base64: invalid character at ${i + k}`);
      n = (n << 6) | v;
    }
    if (o < out.length) out[o++] = (n >> 16) & 255;
    if (o < out.length) out[o++] = (n >> 8) & 255;
    if (o < out.length) out[o++] = n & 255;
  }
  return out;
}

export function float32ToBase64(values: Float32Array): string {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i] as number, true);
  return encodeBytes(bytes);
}

export function base64ToFloat32(text: string): Float32Array {
  const bytes = decodeBytes(text);
  if (bytes.length % 4 !== 0)
    throw new Error(`base64: ${bytes.length} bytes is not a whole number of float32s`);
  const view = new DataView(bytes.buffer);
  const out = new Float32Array(bytes.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}
