import { afterEach, describe, expect, it, vi } from 'vitest';
import { WriteBehind } from './write-behind';

const sum = (a: number, b: number) => a + b;

function counter(opts: { retryMs?: number; maxPending?: number; fail?: () => boolean } = {}) {
  const written: Array<Record<string, number>> = [];
  const dropped: Array<Record<string, number>> = [];
  const buffer = new WriteBehind<number>({
    flushMs: 200,
    merge: sum,
    retryMs: opts.retryMs,
    isFull: opts.maxPending ? (pending) => pending.size >= opts.maxPending! : undefined,
    write: async (batch) => {
      if (opts.fail?.()) throw new Error('database away');
      written.push(Object.fromEntries(batch));
    },
    onDropped: (_, batch) => dropped.push(Object.fromEntries(batch)),
  });
  return { buffer, written, dropped };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the write-behind buffer', () => {
  it('merges bumps of one key and writes them in one batch flushMs after the first', async () => {
    vi.useFakeTimers();
    const { buffer, written } = counter();
    buffer.add('a', 1);
    buffer.add('a', 2);
    buffer.add('b', 1);
    await vi.advanceTimersByTimeAsync(199);
    expect(written).toEqual([]);
    expect(buffer.unwrittenOf('a')).toEqual([3]);
    await vi.advanceTimersByTimeAsync(1);
    await buffer.settled();
    expect(written).toEqual([{ a: 3, b: 1 }]);
    expect(buffer.unwritten()).toEqual([]);
  });

  it('writes at once when full, and everything on flush (shutdown): nothing is left behind', async () => {
    const { buffer, written } = counter({ maxPending: 2 });
    buffer.add('a', 1);
    buffer.add('b', 1);
    await buffer.settled();
    expect(written).toEqual([{ a: 1, b: 1 }]);
    buffer.add('c', 5);
    await buffer.flush();
    expect(written).toEqual([{ a: 1, b: 1 }, { c: 5 }]);
  });

  it('lists a running write as unwritten until it commits, and bumps the generation when it takes entries', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const buffer = new WriteBehind<number>({ flushMs: 200, merge: sum, write: () => gate });
    buffer.add('a', 1);
    const flushed = buffer.flush();
    await Promise.resolve();
    buffer.add('a', 2);
    expect(buffer.generation).toBe(1);
    expect(buffer.unwrittenOf('a')).toEqual([1, 2]);
    release();
    await flushed;
    expect(buffer.unwrittenOf('a')).toEqual([2]);
  });

  it('keeps a failed batch, merged with newer bumps, for the retry', async () => {
    let down = true;
    const { buffer, written } = counter({ retryMs: 1000, fail: () => down });
    buffer.add('a', 1);
    await buffer.flush();
    expect(written).toEqual([]);
    buffer.add('a', 2);
    down = false;
    await buffer.flush();
    expect(written).toEqual([{ a: 3 }]);
  });

  it('without a retry, drops a failed batch and reports it', async () => {
    const { buffer, written, dropped } = counter({ fail: () => true });
    buffer.add('a', 1);
    await buffer.flush();
    expect(dropped).toEqual([{ a: 1 }]);
    expect(written).toEqual([]);
    expect(buffer.unwritten()).toEqual([]);
  });
});
