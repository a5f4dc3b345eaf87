/**
 * The heatmap's cells on the wire: 16-bit steps of the run's largest variance, little-endian, base64, with 65535
 * for "not in the batch". 50,000 cells are one 130 KB string instead of an array that superjson walks value by
 * value (about 100 ms at that size), and the error is at most half a step (4e-6 of a 0.25 variance). Pure and
 * dependency-free: the server encodes, the browser decodes.
 */
const MISSING = 0xffff;
const STEPS = 0xfffe;

export interface PackedCells {
  /** base64 of Uint16 little-endian. */
  data: string;
  /** Variance of one step. */
  step: number;
}

export function encodeCells(values: ArrayLike<number>): PackedCells {
  let max = 0;
  for (let i = 0; i < values.length; i++) max = Math.max(max, values[i] as number);
  const step = max > 0 ? max / STEPS : 1;
  const bytes = new Uint8Array(values.length * 2);
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    const q = v < 0 ? MISSING : Math.min(STEPS, Math.round(v / step));
    bytes[2 * i] = q & 0xff;
    bytes[2 * i + 1] = q >> 8;
  }
  let binary = "";
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK)
    binary += String.fromCharCode(...bytes.subarray(i, Math.min(bytes.length, i + CHUNK)));
  return { data: btoa(binary), step };
}

/** The cells back as variances, -1 where the task was not in the batch. */
export function decodeCells(packed: PackedCells): Float64Array {
  const binary = atob(packed.data);
  const out = new Float64Array(binary.length / 2);
  for (let i = 0; i < out.length; i++) {
    const q = binary.charCodeAt(2 * i) | (binary.charCodeAt(2 * i + 1) << 8);
    out[i] = q === MISSING ? -1 : q * packed.step;
  }
  return out;
}
