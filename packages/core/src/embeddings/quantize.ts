/**
 * int8 storage of unit vectors: 4 bytes of float32 scale (little-endian), then one signed byte per
 * dimension, q[i] = round(v[i] / scale) with scale = max |v[i]| / 127. A 512-dimension vector takes
 * 516 bytes instead of 2,048 (float32) or ~5 kB as a PostgreSQL real[]; the cosine between two
 * dequantised vectors stays within about 0.001 of the original's (quantize.test.ts measures it).
 */

/** Bytes a quantised vector of `dims` dimensions takes. */
export function quantizedBytes(dims: number): number {
  return 4 + dims;
}

export function quantize(v: Float32Array): Uint8Array {
  let max = 0;
  for (let i = 0; i < v.length; i++) {
    const a = Math.abs(v[i]);
    if (!Number.isFinite(a)) throw new RangeError(`cannot quantise a non-finite value at ${i}`);
    if (a > max) max = a;
  }
  const out = new Uint8Array(4 + v.length);
  const scale = max / 127;
  new DataView(out.buffer).setFloat32(0, scale, true);
  const q = new Int8Array(out.buffer, 4);
  if (scale > 0) for (let i = 0; i < v.length; i++) q[i] = Math.max(-127, Math.min(127, Math.round(v[i] / scale)));
  return out;
}

/**
 * The vector back, as float32; renormalised to unit length unless `normalize` is false (a zero vector
 * stays zero). Accepts any Uint8Array view, e.g. a Buffer read from the database.
 */
export function dequantize(bytes: Uint8Array, normalize = true): Float32Array {
  if (bytes.length < 4) throw new RangeError('not a quantised vector: fewer than 4 bytes');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const scale = view.getFloat32(0, true);
  const dims = bytes.length - 4;
  const q = new Int8Array(bytes.buffer, bytes.byteOffset + 4, dims);
  const v = new Float32Array(dims);
  let norm = 0;
  for (let i = 0; i < dims; i++) {
    v[i] = q[i] * scale;
    norm += v[i] * v[i];
  }
  if (normalize && norm > 0) {
    const inv = 1 / Math.sqrt(norm);
    for (let i = 0; i < dims; i++) v[i] *= inv;
  }
  return v;
}

/**
 * The cosine of two quantised vectors without dequantising them (integer dot product over the two
 * norms; the scales cancel out).
 */
export function quantizedCosine(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) throw new RangeError(`quantised vectors differ in length: ${a.length} and ${b.length}`);
  const dims = a.length - 4;
  const qa = new Int8Array(a.buffer, a.byteOffset + 4, dims);
  const qb = new Int8Array(b.buffer, b.byteOffset + 4, dims);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < dims; i++) {
    dot += qa[i] * qb[i];
    na += qa[i] * qa[i];
    nb += qb[i] * qb[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}
