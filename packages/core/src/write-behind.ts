/**
 * The write-behind buffer of the counts a request bumps (retrieval activity in retrieval/activity.ts, usage in
 * quota/usage.ts): entries merge by key in memory and one batch write takes them all, `flushMs` after the first
 * entry, at once when `isFull` says so, and on `flush()` (at shutdown, and before a read that must see them).
 * One write runs at a time; until it has committed its batch is still listed by `unwritten()`, so a reader can add
 * what the table does not hold yet, and `generation` tells it whether a write took entries while it was reading.
 * A failed write either keeps its batch for the next flush (`retryMs` later; nothing is lost while the process
 * lives) or is dropped after `onDropped` reports it.
 */
export interface WriteBehindOptions<V> {
  flushMs: number;
  /** Combines an entry with a newer one of the same key (a later bump of the same counter). */
  merge: (older: V, newer: V) => V;
  /** Writes one batch; a rejection is a failed write. */
  write: (batch: ReadonlyMap<string, V>) => Promise<void>;
  /** Flush at once after an add when this is true of the pending entries. */
  isFull?: (pending: ReadonlyMap<string, V>) => boolean;
  /** Keep a failed batch and flush again after this many ms; without it a failed batch is dropped. */
  retryMs?: number;
  onDropped?: (err: unknown, batch: ReadonlyMap<string, V>) => void;
  /** Let the process exit while a flush is only scheduled (the owner flushes at shutdown). */
  unrefTimer?: boolean;
}

export class WriteBehind<V> {
  private pending = new Map<string, V>();
  private writing: ReadonlyMap<string, V> = new Map();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<void> = Promise.resolve();
  /** Bumped whenever a flush takes the pending entries, so a reader can tell its database read raced one. */
  generation = 0;

  constructor(private readonly opts: WriteBehindOptions<V>) {}

  add(key: string, value: V): void {
    const prev = this.pending.get(key);
    this.pending.set(key, prev === undefined ? value : this.opts.merge(prev, value));
    if (this.opts.isFull?.(this.pending)) void this.flush();
    else this.schedule(this.opts.flushMs);
  }

  /** Entries not yet committed: those of the running write, then the pending ones. */
  unwritten(): Array<[string, V]> {
    return [...this.writing, ...this.pending];
  }

  /** The uncommitted entries of one key (at most one written now and one pending). */
  unwrittenOf(key: string): V[] {
    return [this.writing.get(key), this.pending.get(key)].filter((v): v is V => v !== undefined);
  }

  /** Resolves when no flush is running. */
  settled(): Promise<void> {
    return this.running;
  }

  /** Writes what was collected (one flush at a time); resolves when it is committed (or dropped). */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.running = this.running.then(async () => {
      if (this.pending.size === 0) return;
      this.generation++;
      const batch = this.pending;
      this.writing = batch;
      this.pending = new Map();
      try {
        await this.opts.write(batch);
      } catch (err) {
        if (this.opts.retryMs === undefined) this.opts.onDropped?.(err, batch);
        else {
          // Not written (the database is away or closing): keep the entries, older first, for the next flush.
          const newer = this.pending;
          this.pending = new Map(batch);
          for (const [key, v] of newer) this.add(key, v);
          this.schedule(this.opts.retryMs);
        }
      } finally {
        this.writing = new Map();
      }
    });
    return this.running;
  }

  private schedule(ms: number): void {
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), ms);
    if (this.opts.unrefTimer) this.timer.unref?.();
  }
}
