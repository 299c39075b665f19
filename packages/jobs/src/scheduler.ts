/**
 * Periodic jobs (payload retention, memory lifecycle): one function body, run by an Inngest cron function
 * in Inngest mode and by an in-process timer (`PeriodicTask`) when the embedded runner is used.
 */
import { type Logger, describeError } from '@memory/core';
import type { InngestClient } from './inngest';
import type { StepRunner } from './steps';

export interface CronSpec {
  id: string;
  name: string;
  /** Inngest cron expression, e.g. `TZ=UTC 0 * * * *`. */
  cron: string;
  /** Inngest's retries after the first attempt (0–20). */
  retries: Retries;
}

type Retries = NonNullable<Parameters<InngestClient['createFunction']>[0]['retries']>;

/** The Inngest cron function of a periodic job. Its step result is memoised, so a replay keeps the first clock. */
export function createCronFunction<D, S>(
  inngest: InngestClient,
  spec: CronSpec,
  getDeps: () => Promise<D>,
  run: (step: StepRunner, deps: D, now: Date) => Promise<S>,
) {
  return inngest.createFunction(
    {
      id: spec.id,
      name: spec.name,
      retries: spec.retries,
      // One run at a time: a run that overlaps the next tick would only find less to do, but it is wasted work.
      concurrency: [{ limit: 1 }],
      triggers: [{ cron: spec.cron }],
    },
    async ({ step }) => {
      const deps = await getDeps();
      return run({ run: (id, fn) => step.run(id, fn) as never }, deps, new Date());
    },
  );
}

export interface SchedulerOptions {
  /** Minutes between runs. */
  intervalMinutes: number;
  /** Delay of the first run after start; default 3 s, so start-up is not slowed down. */
  initialDelayMs?: number;
}

/** How a periodic task reports a run in the log: a message and counts only, never content. */
export interface RunReport<S> {
  message: string;
  fields(summary: S): Record<string, unknown>;
}

/**
 * Runs a task in the server process: once shortly after start, then every `intervalMinutes`. Runs never
 * overlap in one process (the next is scheduled when one ends); across processes sharing a PostgreSQL
 * database the task's advisory lock lets one of them work.
 */
export class PeriodicTask<S> {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private current: Promise<S | null> | null = null;

  constructor(
    private readonly task: (now: Date) => Promise<S>,
    private readonly opts: SchedulerOptions,
    private readonly report: RunReport<S>,
    private readonly log?: Logger,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(this.opts.initialDelayMs ?? 3_000);
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.current;
  }

  /**
   * Runs the task now (for tests and the CLI). A call while a run is in progress joins that run.
   * Resolves to null when the run failed (the error is logged; the next tick tries again).
   */
  runOnce(now: Date = new Date()): Promise<S | null> {
    this.current ??= this.execute(now).finally(() => {
      this.current = null;
    });
    return this.current;
  }

  private async execute(now: Date): Promise<S | null> {
    const started = Date.now();
    try {
      const summary = await this.task(now);
      this.log?.info({ ...this.report.fields(summary), ms: Date.now() - started }, this.report.message);
      return summary;
    } catch (err) {
      this.log?.error(describeError(err), `${this.report.message} failed`);
      return null;
    }
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.runOnce().finally(() => this.schedule(this.opts.intervalMinutes * 60_000));
    }, delayMs);
    this.timer.unref();
  }
}
