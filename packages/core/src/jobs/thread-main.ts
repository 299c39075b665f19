/**
 * An extraction thread (jobs/threads.ts): the built-in extractor and the store step's CPU work
 * (jobs/prepare-store.ts), answering the calling thread's messages one at a time. The build step bundles this
 * file with the core sources it imports into generated/extraction-thread.mjs (scripts/build-extraction-thread.mjs);
 * npm packages stay imports, resolved from node_modules as on the calling thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { BuiltinExtractor } from '../extraction/builtin';
import { prepareStore } from './prepare-store';
import { lowerThreadPriority } from './thread-priority';
import type { ThreadReply, ThreadRequest } from './thread-protocol';

const port = parentPort;
if (!port) throw new Error('the extraction thread runs as a worker thread');
// background work: requests get the CPU first (thread-priority.ts)
lowerThreadPriority(Number((workerData as { nice?: number } | null)?.nice ?? 0));
const extractor = new BuiltinExtractor();

port.on('message', (msg: ThreadRequest) => {
  void answer(msg).then((reply) => port.postMessage(reply));
});

async function answer(msg: ThreadRequest): Promise<ThreadReply> {
  try {
    if (msg.type === 'extract') return { id: msg.id, ok: true, value: await extractor.extract(msg.input) };
    return { id: msg.id, ok: true, value: prepareStore(msg.result, msg.messages ?? undefined) };
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    return { id: msg.id, ok: false, error: { name: e.name, message: e.message } };
  }
}
