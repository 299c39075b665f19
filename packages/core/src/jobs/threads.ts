/**
 * Extraction threads: the CPU-bound part of an extraction job — the built-in extractor, and the store step's
 * claims, word vectors, compositional pass and passage analyses (jobs/prepare-store.ts) — runs on worker
 * threads (node:worker_threads), so the HTTP event loop of a server that also runs jobs only waits for them.
 * The database work stays with the caller (PGlite has a thread of its own, packages/db; a PostgreSQL pool is per thread).
 *
 * - `threads` workers, each started on its first call; a call goes to the worker with the fewest calls in flight;
 * - each worker lowers its own scheduling priority to `nice` on Linux (thread-priority.ts): requests go first;
 * - the worker is the bundle generated/extraction-thread.mjs (scripts/build-extraction-thread.mjs, part of the
 *   core build); without it `createExtractionThreads` returns null and the work stays on the calling thread;
 * - a worker that throws outside a call, exits, or does not answer a call within `timeoutMs` is stopped: its calls
 *   in flight fail with ExtractionThreadError (the job's own retries take over) and the next call starts another;
 * - an idle pool does not keep the process alive; `close()` stops the workers and fails later calls.
 */
import { Worker } from 'node:worker_threads';
import type { ExtractionInput, ExtractionProvider, ExtractionResult } from '../extraction/types';
import { findGeneratedFile } from '../generated-files';
import type { ConversationMessage } from '../messages';
import type { PreparedStore } from './prepare-store';
import type { ThreadReply, ThreadRequest } from './thread-protocol';

export class ExtractionThreadError extends Error {
  override name = 'ExtractionThreadError';
}

export interface ExtractionThreads {
  readonly size: number;
  /** The built-in extractor, on a thread. */
  extract(input: ExtractionInput): Promise<ExtractionResult>;
  /** The store step's CPU work (jobs/prepare-store.ts), on a thread. */
  prepare(result: Pick<ExtractionResult, 'memories' | 'composition'>, messages?: readonly ConversationMessage[]): Promise<PreparedStore>;
  /** Calls answered and failed, workers started (for readiness and tests). */
  stats(): { calls: number; failures: number; starts: number };
  close(): Promise<void>;
}

/** The thread's bundle from the build step (generated-files.ts), or null before the build has run. */
export function findExtractionThreadFile(cwd = process.cwd()): string | null {
  return findGeneratedFile('extraction-thread.mjs', cwd);
}

interface Call {
  resolve(value: unknown): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

interface Slot {
  worker: Worker | null;
  calls: Map<number, Call>;
}

export function createExtractionThreads(opts: {
  threads: number;
  file?: string | null;
  timeoutMs?: number;
  /** The nice value each thread gives itself on Linux (thread-priority.ts); 0 keeps the process's. */
  nice?: number;
}): ExtractionThreads | null {
  const file = opts.file === undefined ? findExtractionThreadFile() : opts.file;
  if (opts.threads < 1 || !file) return null;
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const slots: Slot[] = Array.from({ length: opts.threads }, () => ({ worker: null, calls: new Map() }));
  const counts = { calls: 0, failures: 0, starts: 0 };
  let nextId = 1;
  let closed = false;

  /** Stops a slot's worker; its calls in flight fail with `err`. */
  function drop(slot: Slot, w: Worker, err: Error) {
    if (slot.worker !== w) return;
    slot.worker = null;
    void w.terminate();
    for (const call of slot.calls.values()) {
      clearTimeout(call.timer);
      counts.failures++;
      call.reject(err);
    }
    slot.calls.clear();
  }

  function start(slot: Slot): Worker {
    counts.starts++;
    const w = new Worker(file as string, { stdout: false, stderr: false, workerData: { nice: opts.nice ?? 0 } });
    slot.worker = w;
    w.unref();
    w.on('message', (reply: ThreadReply) => {
      const call = slot.calls.get(reply.id);
      if (!call) return;
      slot.calls.delete(reply.id);
      clearTimeout(call.timer);
      if (slot.calls.size === 0) w.unref();
      if (reply.ok) {
        counts.calls++;
        call.resolve(reply.value);
      } else {
        counts.failures++;
        const err = new ExtractionThreadError(`${reply.error.name}: ${reply.error.message}`);
        call.reject(err);
      }
    });
    w.on('error', (err) => drop(slot, w, new ExtractionThreadError(`the extraction thread failed: ${err.name}`)));
    w.on('exit', (code) => drop(slot, w, new ExtractionThreadError(`the extraction thread exited with code ${code}`)));
    return w;
  }

  function send<T>(request: ThreadRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never): Promise<T> {
    if (closed) return Promise.reject(new ExtractionThreadError('the extraction threads are closed'));
    const slot = slots.reduce((best, s) => (s.calls.size < best.calls.size ? s : best));
    const w = slot.worker ?? start(slot);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => drop(slot, w, new ExtractionThreadError(`the extraction thread did not answer within ${timeoutMs} ms`)), timeoutMs);
      timer.unref();
      slot.calls.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      // busy: the process waits for the answer
      w.ref();
      w.postMessage({ ...request, id });
    });
  }

  return {
    size: opts.threads,
    extract: (input) => send<ExtractionResult>({ type: 'extract', input }),
    prepare: (result, messages) =>
      send<PreparedStore>({ type: 'prepare', result: { memories: result.memories, composition: result.composition }, messages: messages ?? null }),
    stats: () => ({ ...counts }),
    async close() {
      closed = true;
      await Promise.all(slots.map(async (slot) => {
        const w = slot.worker;
        if (w) drop(slot, w, new ExtractionThreadError('the extraction threads are closed'));
      }));
    },
  };
}

/** The built-in extractor through the threads: same name, same results. */
export function threadedBuiltinExtractor(threads: ExtractionThreads): ExtractionProvider {
  return { name: 'builtin', extract: (input) => threads.extract(input) };
}
