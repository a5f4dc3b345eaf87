/**
 * Typed arrays <-> base64, little-endian, with no Node Buffer (src/core also runs in the browser). Checkpoints
 * store weights this way: a quarter of the size of a JSON number array, and exact.
 */
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const LOOKUP = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) LOOKUP[ALPHABET.charCodeAt(i)] = i;

const ALPHABET_CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
const PAD = 61; // "="
const ascii = new TextDecoder("latin1");

/**
 * The runtime's native encoder where it has one (Node's Buffer; src/core imports nothing, so it is looked up, not
 * imported): a run encodes its learner's state every iteration, and the encoder below took 0.33 s of the main
 * thread's 14 in the rollouts bench's storing job. Both write standard padded base64.
 */
const nativeEncoder = (
  globalThis as {
    Buffer?: {
      from(buffer: ArrayBufferLike, offset: number, length: number): { toString(encoding: "base64"): string };
    };
  }
).Buffer;

function encodeBytes(bytes: Uint8Array): string {
  if (nativeEncoder)
    return nativeEncoder.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
  return encodeBytesInJs(bytes);
}

/**
 * Writes the characters as bytes and decodes them once: a run saves a checkpoint of 2^18 weights every iteration,
 * and building that string a character at a time made garbage collection most of a long run's time.
 */
export function encodeBytesInJs(bytes: Uint8Array): string {
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  let o = 0;
  for (let i = 0; i < bytes.length; i += 3) {
    const b0 = bytes[i] as number;
    const b1 = i + 1 < bytes.length ? (bytes[i + 1] as number) : 0;
    const b2 = i + 2 < bytes.length ? (bytes[i + 2] as number) : 0;
    const n = (b0 << 16) | (b1 << 8) | b2;
    out[o++] = ALPHABET_CODES[(n >> 18) & 63] as number;
    out[o++] = ALPHABET_CODES[(n >> 12) & 63] as number;
    out[o++] = i + 1 < bytes.length ? (ALPHABET_CODES[(n >> 6) & 63] as number) : PAD;
    out[o++] = i + 2 < bytes.length ? (ALPHABET_CODES[n & 63] as number) : PAD;
  }
  return ascii.decode(out);
}

export function decodeBytes(text: string): Uint8Array<ArrayBuffer> {
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

type NumberArray = Float32Array | Float64Array | Uint32Array;

/** How one element type sits in little-endian bytes. */
interface ElementCodec<A extends NumberArray> {
  name: string;
  bytes: number;
  make: (length: number) => A;
  read: (view: DataView, offset: number) => number;
  write: (view: DataView, offset: number, value: number) => void;
}

/** Typed arrays use the machine's byte order; on a little-endian machine (nearly all) their bytes are the format. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function encodeArray<A extends NumberArray>(values: A, codec: ElementCodec<A>): string {
  if (LITTLE_ENDIAN) return encodeBytes(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  const bytes = new Uint8Array(values.length * codec.bytes);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i++) codec.write(view, i * codec.bytes, values[i] as number);
  return encodeBytes(bytes);
}

function decodeArray<A extends NumberArray>(text: string, codec: ElementCodec<A>): A {
  const bytes = decodeBytes(text);
  if (bytes.length % codec.bytes !== 0)
    throw new Error(`base64: ${bytes.length} bytes is not a whole number of ${codec.name}s`);
  const out = codec.make(bytes.length / codec.bytes);
  if (LITTLE_ENDIAN) {
    new Uint8Array(out.buffer).set(bytes);
    return out;
  }
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < out.length; i++) out[i] = codec.read(view, i * codec.bytes);
  return out;
}

const FLOAT32: ElementCodec<Float32Array> = {
  name: "float32",
  bytes: 4,
  make: (n) => new Float32Array(n),
  read: (view, o) => view.getFloat32(o, true),
  write: (view, o, x) => view.setFloat32(o, x, true),
};
const FLOAT64: ElementCodec<Float64Array> = {
  name: "float64",
  bytes: 8,
  make: (n) => new Float64Array(n),
  read: (view, o) => view.getFloat64(o, true),
  write: (view, o, x) => view.setFloat64(o, x, true),
};
const UINT32: ElementCodec<Uint32Array> = {
  name: "uint32",
  bytes: 4,
  make: (n) => new Uint32Array(n),
  read: (view, o) => view.getUint32(o, true),
  write: (view, o, x) => view.setUint32(o, x, true),
};

export const float32ToBase64 = (values: Float32Array): string => encodeArray(values, FLOAT32);
export const base64ToFloat32 = (text: string): Float32Array => decodeArray(text, FLOAT32);
export const float64ToBase64 = (values: Float64Array): string => encodeArray(values, FLOAT64);
export const base64ToFloat64 = (text: string): Float64Array => decodeArray(text, FLOAT64);
export const uint32ToBase64 = (values: Uint32Array): string => encodeArray(values, UINT32);
export const base64ToUint32 = (text: string): Uint32Array => decodeArray(text, UINT32);
