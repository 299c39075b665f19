/**
 * The embedded runner: executes queued jobs in process from the job table when no Inngest server is
 * configured. Durable (the table survives restarts), leased (a crashed worker's job is claimed again once
 * its lease expires), retried with backoff, and limited to one running job per (tenant, user).
 */
import { randomUUID } from 'node:crypto';
import {
  type JobQueue,
  type Logger,
  PermanentJobError,
  claimNextJob,
  describeError,
  recordFailure,
  saveStepResult,
} from '@memory/core';
import { type Db, eq, extractionJobs, sql } from '@memory/db';
import { runCorrection } from './correction';
import { type JobDeps, runExtraction } from './extraction';
import type { JobBody } from './inngest';
import { type StepRunner, toJson } from './steps';

/** The function body for each job `kind` (the same bodies Inngest runs). */
const JOB_BODIES: Record<string, JobBody> = { extraction: runExtraction, correction: runCorrection };

export interface RunnerOptions {
  pollMs: number;
  leaseSeconds: number;
  backoffBaseMs: number;
  /** Jobs run at the same time by this process (different users). */
  concurrency?: number;
  workerId?: string;
}

export class EmbeddedRunner {
  readonly workerId: string;
  private running = false;
  private inFlight = new Set<Promise<void>>();
  private wakeUp: (() => void) | null = null;
  private loop: Promise<void> | null = null;

  constructor(
    private readonly deps: JobDeps,
    private readonly opts: RunnerOptions,
    private readonly log?: Logger,
  ) {
    this.workerId = opts.workerId ?? `embedded-${process.pid}-${randomUUID().slice(0, 8)}`;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Called after an add commits, so a new job starts without waiting for the next poll. */
  wake(): void {
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
  }

  /** Claims and runs jobs until none is runnable. Returns how many ran. For tests and the CLI. */
  async drain(): Promise<number> {
    let n = 0;
    for (;;) {
      const job = await claimNextJob(this.deps.db, { workerId: this.workerId, leaseSeconds: this.opts.leaseSeconds });
      if (!job) return n;
      await this.execute(job);
      n++;
    }
  }

  private async run(): Promise<void> {
    const limit = this.opts.concurrency ?? 2;
    while (this.running) {
      let claimed = false;
      if (this.inFlight.size < limit) {
        try {
          const job = await claimNextJob(this.deps.db, { workerId: this.workerId, leaseSeconds: this.opts.leaseSeconds });
          if (job) {
            claimed = true;
            const p = this.execute(job).finally(() => {
              this.inFlight.delete(p);
              this.wake();
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

  private async execute(job: typeof extractionJobs.$inferSelect): Promise<void> {
    const { db } = this.deps;
    const heartbeat = setInterval(
      () => void extendLease(db, job.id, this.opts.leaseSeconds).catch(() => {}),
      (this.opts.leaseSeconds * 1000) / 3,
    );
    const started = Date.now();
    try {
      const body = JOB_BODIES[job.kind];
      if (!body) throw new PermanentJobError(`no function runs jobs of kind "${job.kind}"`);
      const summary = (await body(job.id, embeddedSteps(db, job.id, job.stepState as Record<string, unknown>), this.deps, {
        attempt: job.attempts,
        maxAttempts: job.maxAttempts,
      })) as {
        status?: string;
      } | null;
      this.log?.info(
        { job_id: job.id, tenant_id: job.tenantId, kind: job.kind, attempt: job.attempts, ms: Date.now() - started, status: summary?.status },
        'job finished',
      );
    } catch (err) {
      const outcome = await recordFailure(db, job, err, {
        backoffBaseMs: this.opts.backoffBaseMs,
        permanent: err instanceof PermanentJobError,
      });
      this.log?.warn(
        { job_id: job.id, tenant_id: job.tenantId, attempt: job.attempts, next: outcome.status, ...describeError(err) },
        'job attempt failed',
      );
    } finally {
      clearInterval(heartbeat);
    }
  }
}

function embeddedSteps(db: Db, jobId: string, saved: Record<string, unknown>): StepRunner {
  return {
    async run<T>(id: string, fn: () => Promise<T> | T): Promise<T> {
      if (Object.hasOwn(saved, id)) return saved[id] as T;
      const value = toJson(await fn());
      await saveStepResult(db, jobId, id, value);
      return value;
    },
  };
}

async function extendLease(db: Db, jobId: string, leaseSeconds: number) {
  await db
    .update(extractionJobs)
    .set({ leaseUntil: sql`now() + make_interval(secs => ${leaseSeconds})` })
    .where(eq(extractionJobs.id, jobId));
}


export class EmbeddedQueue implements JobQueue {
  readonly name = 'embedded';
  constructor(private readonly runner: EmbeddedRunner | null) {}
  async enqueue(): Promise<void> {
    this.runner?.wake();
  }
}
