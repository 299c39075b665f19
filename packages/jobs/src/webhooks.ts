/**
 * Webhook delivery (docs/webhooks.md). The delivery rows written by the outbox are the source of truth; one
 * attempt is `deliverOnce` (claim with a lease, sign, POST, record the outcome and the next attempt time).
 *
 * - Inngest mode: the cron function `memory-webhook-relay` hands new deliveries to Inngest every minute as
 *   `memory/webhook.delivery.requested`; `memory-webhook-delivery` runs `runWebhookDelivery`: an attempt per
 *   step, `step.sleepUntil` the next attempt of the schedule, until the delivery succeeds or fails for good.
 * - Embedded mode: `WebhookDispatcher` polls the table in the server process and runs the same `deliverOnce`
 *   for each due delivery (a crashed process's attempt is claimed again when its lease expires).
 */
import {
  type AttemptOutcome,
  type Logger,
  type WebhookSettings,
  attemptWebhookDelivery,
  claimWebhookDeliveries,
  describeError,
  takeUndispatchedWebhookDeliveries,
} from '@memory/core';
import type { Db } from '@memory/db';
import type { InngestClient } from './inngest';

export const WEBHOOK_DELIVERY_REQUESTED = 'memory/webhook.delivery.requested';
export const WEBHOOK_DELIVERY_FUNCTION_ID = 'memory-webhook-delivery';
export const WEBHOOK_RELAY_FUNCTION_ID = 'memory-webhook-relay';
/** How often the embedded dispatcher looks for due deliveries (at least; MEMORY_JOB_POLL_MS when that is longer). */
export const WEBHOOK_POLL_MS = 1000;
/** Deliveries handed to Inngest per relay run. */
const RELAY_BATCH = 500;

export interface WebhookDeps {
  db: Db;
  settings: WebhookSettings;
  log?: Logger;
}

/** Long enough for the request's timeout; a worker that dies mid-attempt leaves the delivery for another after it. */
const webhookLeaseSeconds = (settings: WebhookSettings) => Math.ceil(settings.timeoutMs / 1000) + 30;

/** One attempt of a delivery that is due; null when it is not claimable (finished, not due, or another worker has it). */
async function deliverOnce(deps: WebhookDeps, deliveryId: string): Promise<AttemptOutcome | null> {
  const [claimed] = await claimWebhookDeliveries(deps.db, { limit: 1, leaseSeconds: webhookLeaseSeconds(deps.settings), deliveryId });
  if (!claimed) return null;
  return attempt(deps, claimed);
}

async function attempt(deps: WebhookDeps, deliveryId: string): Promise<AttemptOutcome> {
  const outcome = await attemptWebhookDelivery(deps.db, deliveryId, deps.settings);
  // Ids, status code and outcome only: never the URL (it may hold a token), the body or a secret.
  deps.log?.info(
    { delivery_id: deliveryId, status_code: outcome.statusCode, outcome: outcome.status, endpoint_disabled: outcome.endpointDisabled },
    'webhook attempt',
  );
  return outcome;
}

interface SleepingSteps {
  run<T>(id: string, fn: () => Promise<T>): Promise<T>;
  sleepUntil(id: string, until: string): Promise<void>;
}

/** The Inngest function body: attempts with the schedule's waits between them, until the delivery is finished. */
export async function runWebhookDelivery(deliveryId: string, step: SleepingSteps, deps: WebhookDeps): Promise<AttemptOutcome | null> {
  for (let n = 1; ; n++) {
    const outcome = await step.run(`attempt-${n}`, () => deliverOnce(deps, deliveryId));
    if (!outcome || outcome.status !== 'pending' || !outcome.nextAttemptAt) return outcome;
    await step.sleepUntil(`wait-${n}`, outcome.nextAttemptAt);
  }
}

export function createWebhookDeliveryFunction(inngest: InngestClient, getDeps: () => Promise<WebhookDeps>) {
  return inngest.createFunction(
    {
      id: WEBHOOK_DELIVERY_FUNCTION_ID,
      name: 'Deliver a signed webhook',
      // Retries of a step that threw (database unavailable); a receiver's failure is not an exception.
      retries: 3,
      concurrency: [{ key: 'event.data.tenant_id', limit: 10 }],
      triggers: [{ event: WEBHOOK_DELIVERY_REQUESTED }],
    },
    async ({ event, step }) => {
      const deps = await getDeps();
      const { delivery_id: deliveryId } = event.data as { delivery_id: string };
      return runWebhookDelivery(
        deliveryId,
        { run: (id, fn) => step.run(id, fn) as never, sleepUntil: (id, until) => step.sleepUntil(id, until) },
        deps,
      );
    },
  );
}

/** Inngest mode: new deliveries (from the outbox or a resend) become delivery function runs, at most a minute later. */
export function createWebhookRelayFunction(inngest: InngestClient, getDeps: () => Promise<WebhookDeps>) {
  return inngest.createFunction(
    {
      id: WEBHOOK_RELAY_FUNCTION_ID,
      name: 'Hand new webhook deliveries to the delivery function',
      retries: 2,
      concurrency: [{ limit: 1 }],
      triggers: [{ cron: 'TZ=UTC * * * * *' }],
    },
    async ({ step }) => {
      const deps = await getDeps();
      return step.run('relay', async () => {
        const taken = await takeUndispatchedWebhookDeliveries(deps.db, RELAY_BATCH);
        if (taken.length > 0) {
          await inngest.send(
            taken.map((d) => ({ name: WEBHOOK_DELIVERY_REQUESTED, id: `webhook-delivery-${d.id}`, data: { delivery_id: d.id, tenant_id: d.tenant_id } })),
          );
        }
        return { relayed: taken.length };
      });
    },
  );
}

/** Embedded mode: attempts due deliveries in the server process, `concurrency` at a time. */
export class WebhookDispatcher {
  private running = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;

  constructor(
    private readonly deps: WebhookDeps,
    private readonly opts: { pollMs: number; concurrency?: number },
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wakeUp?.();
    await this.loop;
  }

  /** Attempts every delivery that is due now, once. Returns how many were attempted. For tests. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.tick();
      if (n === 0) return total;
      total += n;
    }
  }

  private async tick(): Promise<number> {
    const ids = await claimWebhookDeliveries(this.deps.db, {
      limit: this.opts.concurrency ?? 4,
      leaseSeconds: webhookLeaseSeconds(this.deps.settings),
    });
    await Promise.all(
      ids.map((id) =>
        attempt(this.deps, id).catch((err) => this.deps.log?.error({ delivery_id: id, ...describeError(err) }, 'webhook attempt failed')),
      ),
    );
    return ids.length;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let n = 0;
      try {
        n = await this.tick();
      } catch (err) {
        this.deps.log?.error(describeError(err), 'webhook claim failed');
      }
      if (n === 0 && this.running) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, this.opts.pollMs);
          this.wakeUp = () => {
            clearTimeout(t);
            resolve();
          };
        });
        this.wakeUp = null;
      }
    }
  }
}
