import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BuiltinExtractor } from '../extraction/builtin';
import type { ExtractionInput } from '../extraction/types';
import { prepareStore } from './prepare-store';
import { ExtractionThreadError, createExtractionThreads, findExtractionThreadFile, threadedBuiltinExtractor } from './threads';

const conversations: ExtractionInput[] = [
  {
    messages: [
      { role: 'user', content: "I'm a paediatric nurse and I moved to Porto last month with my partner Ana." },
      { role: 'assistant', content: 'Congratulations on the move! How is the new hospital?' },
      { role: 'user', content: 'Busy. My favourite drink is green tea, and I quit coffee in March.' },
    ],
    observedAt: new Date('2026-05-04T10:00:00Z'),
  },
  {
    messages: [{ role: 'user', content: `I train for a half marathon on Tuesdays. ${'We ran along the river and talked about books. '.repeat(40)}` }],
    observedAt: new Date('2026-06-01T08:00:00Z'),
    domain: 'general',
  },
  { messages: [{ role: 'user', content: 'What is the capital of France?' }], observedAt: new Date('2026-06-02T08:00:00Z') },
];

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A worker file of our own, for the failure cases. */
function workerFile(source: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'threads-test-'));
  dirs.push(dir);
  const file = path.join(dir, 'worker.mjs');
  writeFileSync(file, `import { parentPort } from 'node:worker_threads';\n${source}\n`);
  return file;
}

describe('extraction threads', () => {
  it('finds the bundle the core build writes (npx turbo run build --filter=@memory/core)', () => {
    expect(findExtractionThreadFile()).toMatch(/generated\/extraction-thread\.mjs$/);
  });

  it('extract and prepare the same as the calling thread would', async () => {
    const threads = createExtractionThreads({ threads: 1 });
    expect(threads).not.toBeNull();
    try {
      const extractor = threadedBuiltinExtractor(threads!);
      expect(extractor.name).toBe(new BuiltinExtractor().name);
      for (const input of conversations) {
        const here = await new BuiltinExtractor().extract(input);
        const there = await extractor.extract(input);
        expect(there).toEqual(here);
        expect(await threads!.prepare(there, input.messages)).toEqual(prepareStore(here, input.messages));
      }
      expect(threads!.stats()).toMatchObject({ calls: conversations.length * 2, failures: 0, starts: 1 });
    } finally {
      await threads?.close();
    }
  });

  it('spreads concurrent calls over its threads', async () => {
    const threads = createExtractionThreads({ threads: 2 });
    try {
      const results = await Promise.all([...conversations, ...conversations].map((c) => threads!.extract(c)));
      expect(results).toHaveLength(6);
      expect(threads!.stats().starts).toBe(2);
    } finally {
      await threads?.close();
    }
  });

  it('fails the calls of a thread that exits, and starts another for the next call', async () => {
    const file = workerFile(`parentPort.on('message', (m) => { if (m.input.messages.length === 1) process.exit(3); parentPort.postMessage({ id: m.id, ok: true, value: 'fine' }); });`);
    const threads = createExtractionThreads({ threads: 1, file });
    try {
      await expect(threads!.extract(conversations[1])).rejects.toThrow(ExtractionThreadError);
      await expect(threads!.extract(conversations[0])).resolves.toBe('fine');
      expect(threads!.stats()).toEqual({ calls: 1, failures: 1, starts: 2 });
    } finally {
      await threads?.close();
    }
  });

  it('fails a call the thread does not answer in time, and one whose work threw', async () => {
    const file = workerFile(
      `parentPort.on('message', (m) => { if (m.type === 'prepare') parentPort.postMessage({ id: m.id, ok: false, error: { name: 'TypeError', message: 'bad input' } }); });`,
    );
    const threads = createExtractionThreads({ threads: 1, file, timeoutMs: 200 });
    try {
      await expect(threads!.extract(conversations[0])).rejects.toThrow(/did not answer within 200 ms/);
      await expect(threads!.prepare({ memories: [] })).rejects.toThrow('TypeError: bad input');
    } finally {
      await threads?.close();
    }
  });

  it('refuses calls after close, and is not made without threads or without the bundle', async () => {
    const threads = createExtractionThreads({ threads: 1 });
    await threads!.extract(conversations[2]);
    await threads!.close();
    await expect(threads!.extract(conversations[2])).rejects.toThrow(/closed/);
    expect(createExtractionThreads({ threads: 0 })).toBeNull();
    expect(createExtractionThreads({ threads: 2, file: null })).toBeNull();
  });

  /** The nice values of this process's threads, from /proc (field 19 of each task's stat). */
  function threadNiceValues(): number[] {
    return readdirSync('/proc/self/task').map((tid) => {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    });
  }

  it.runIf(process.platform === 'linux')('runs its threads at the nice value asked for, the calling thread unchanged', async () => {
    const before = threadNiceValues();
    expect(before).not.toContain(7);
    const threads = createExtractionThreads({ threads: 2, nice: 7 });
    try {
      await Promise.all([threads!.extract(conversations[0]!), threads!.extract(conversations[2]!)]);
      const after = threadNiceValues();
      expect(after.filter((n) => n === 7)).toHaveLength(2);
      expect(os.getPriority()).toBe(before[0]);
    } finally {
      await threads?.close();
    }
  });
});
