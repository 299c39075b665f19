/**
 * The embedded runner: executes queued jobs in process from the job table when no Inngest server is
 * configured. Durable (the table survives restarts), leased (a crashed worker's job is claimed again once
 * its lease expires), retried with backoff, and limited to one running job per (tenant, user) — or per passport
 * user for universal jobs. It claims from every job table (sources.ts) in turn, so neither starves the other.
 * A table that had nothing to claim is asked again after a poll interval, or at once when this process queues
 * a job of its own into it: an idle table costs no statement per job of a busy one.
 */
import { randomUUID } from 'node:crypto';
import { type JobQueue, type JobTable, type Logger, PermanentJobError, type QueuedJob, describeError } from '@memory/core';
import type { JobDeps } from './extraction';
import { ALL_JOB_SOURCES, type ClaimedJob, type JobSource, sourceRows } from './sources';
import { embeddedSteps } from './steps';

export interface RunnerOptions {
  pollMs: number;
  leaseSeconds: number;
  backoffBaseMs: number;
  /** Jobs run at the same time by this process (different users). */
  concurrency?: number;
  workerId?: string;
  /** The job tables to claim from (default: all of them). */
  sources?: readonly JobSource[];
}

export class EmbeddedRunner {
  readonly workerId: string;
  private running = false;
  private inFlight = new Set<Promise<void>>();
  private wakeUp: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private readonly sources: readonly JobSource[];
  /** The source asked first next time (round robin). */
  private nextSource = 0;
  /** When each source last had nothing to claim (ms since the epoch; 0: ask it). */
  private readonly emptyAt: number[];

  constructor(
    private readonly deps: JobDeps,
    private readonly opts: RunnerOptions,
    private readonly log?: Logger,
  ) {
    this.workerId = opts.workerId ?? `embedded-${process.pid}-${randomUUID().slice(0, 8)}`;
    this.sources = opts.sources ?? ALL_JOB_SOURCES;
    this.emptyAt = this.sources.map(() => 0);
  }

  /** Whether the poll loop runs (readiness, GET /v1/health/ready). */
  get isRunning(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /**
   * Called after an add commits, so a new job starts without waiting for the next poll. With the job's table,
   * that table is asked at once even if it had nothing a moment ago; without, every table is.
   */
  wake(table?: JobTable): void {
    this.sources.forEach((source, i) => {
      if (table === undefined || source.table === table) this.emptyAt[i] = 0;
    });
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wakeUp?.();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
  }

  /** Claims and runs jobs until none is runnable. Returns how many ran. For tests and the CLI. */
  async drain(): Promise<number> {
    let n = 0;
    for (;;) {
      const claimed = await this.claim(true);
      if (!claimed) return n;
      await this.execute(claimed.source, claimed.job);
      n++;
    }
  }

  /**
   * One runnable job from the first source that has one, starting after the source that gave the last. A source
   * found empty less than a poll interval ago is skipped unless `everySource` (drain).
   */
  private async claim(everySource = false): Promise<{ source: JobSource; job: ClaimedJob } | null> {
    for (let i = 0; i < this.sources.length; i++) {
      const at = (this.nextSource + i) % this.sources.length;
      const now = Date.now();
      if (!everySource && now - this.emptyAt[at] < this.opts.pollMs) continue;
      const source = this.sources[at];
      const job = await source.claim(this.deps.db, { workerId: this.workerId, leaseSeconds: this.opts.leaseSeconds });
      if (job) {
        this.nextSource = (at + 1) % this.sources.length;
        return { source, job };
      }
      this.emptyAt[at] = now;
    }
    return null;
  }

  private async run(): Promise<void> {
    const limit = this.opts.concurrency ?? 2;
    while (this.running) {
      let claimed = false;
      if (this.inFlight.size < limit) {
        try {
          const next = await this.claim();
          if (next) {
            claimed = true;
            const p = this.execute(next.source, next.job).finally(() => {
              this.inFlight.delete(p);
              // the user's next job in that table may have been waiting for this one
              this.wake(next.source.table);
            });
            this.inFlight.add(p);
          }
        } catch (err) {
          this.log?.error(describeError(err), 'job claim failed');
        }
      }
      if (!claimed) await this.sleep(this.opts.pollMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = null;
        done();
      };
    });
  }

  private async execute(source: JobSource, job: ClaimedJob): Promise<void> {
    const { db } = this.deps;
    const rows = sourceRows(source);
    let leaseLost = false;
    const heartbeat = setInterval(() => {
      void rows
        .extendLease(db, job.id, this.opts.leaseSeconds, this.workerId)
        .then((held) => {
          if (!held && !leaseLost) {
            leaseLost = true;
            this.log?.warn({ job_id: job.id, ...job.logFields, attempt: job.attempts }, 'job lease lost: another worker took the job over');
          }
        })
        .catch(() => {});
    }, (this.opts.leaseSeconds * 1000) / 3);
    const started = Date.now();
    try {
      const body = source.body(job);
      if (!body) throw new PermanentJobError(`no function runs jobs of kind "${job.kind}"`);
      const steps = embeddedSteps(job.stepState as Record<string, unknown>, (id, value) => rows.saveStep(db, job.id, id, value));
      const summary = (await body(job.id, steps, this.deps, { attempt: job.attempts, maxAttempts: job.maxAttempts })) as {
        status?: string;
      } | null;
      this.log?.info(
        { job_id: job.id, ...job.logFields, kind: job.kind, attempt: job.attempts, ms: Date.now() - started, status: summary?.status },
        'job finished',
      );
    } catch (err) {
      const outcome = await rows.recordFailure(db, job, err, {
        backoffBaseMs: this.opts.backoffBaseMs,
        permanent: err instanceof PermanentJobError,
        lockedBy: this.workerId,
      });
      this.log?.warn(
        { job_id: job.id, ...job.logFields, attempt: job.attempts, next: outcome.status, ...describeError(err) },
        'job attempt failed',
      );
    } finally {
      clearInterval(heartbeat);
    }
  }
}

export class EmbeddedQueue implements JobQueue {
  readonly name = 'embedded';
  constructor(private readonly runner: EmbeddedRunner | null) {}
  async enqueue(job: QueuedJob): Promise<void> {
    this.runner?.wake(job.kind === 'universal' ? 'universal_jobs' : 'extraction_jobs');
  }
}
