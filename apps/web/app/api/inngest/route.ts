/**
 * The Inngest endpoint. Used only in `inngest` job mode; the same functions run in the embedded runner
 * otherwise. Inngest verifies requests with INNGEST_SIGNING_KEY.
 */
import {
  createJobKindFunctions,
  createJobRelayFunction,
  createLifecycleFunction,
  createRetentionFunction,
  createWebhookDeliveryFunction,
  createWebhookRelayFunction,
} from '@memory/jobs';
import { serve } from 'inngest/next';
import { getRuntime } from '@/lib/runtime';

const lazy = getRuntime;
let handlers: ReturnType<typeof serve> | null = null;

async function get() {
  if (!handlers) {
    const rt = await lazy();
    handlers = serve({
      client: rt.inngest,
      functions: [
        // one function per job kind (packages/jobs/src/kinds.ts)
        ...createJobKindFunctions(rt.inngest, async () => rt.jobDeps),
        createRetentionFunction(rt.inngest, async () => ({ db: rt.db })),
        createLifecycleFunction(rt.inngest, async () => ({ db: rt.db })),
        createWebhookDeliveryFunction(rt.inngest, async () => rt.webhookDeps),
        createWebhookRelayFunction(rt.inngest, async () => rt.webhookDeps),
        createJobRelayFunction(rt.inngest, async () => ({ db: rt.db, log: rt.log })),
      ],
    });
  }
  return handlers;
}

type Ctx = { params: Promise<Record<string, never>> };
export const GET = async (req: Request, ctx: Ctx) => ((await get()).GET as (r: Request, c: Ctx) => Promise<Response>)(req, ctx);
export const POST = async (req: Request, ctx: Ctx) => ((await get()).POST as (r: Request, c: Ctx) => Promise<Response>)(req, ctx);
export const PUT = async (req: Request, ctx: Ctx) => ((await get()).PUT as (r: Request, c: Ctx) => Promise<Response>)(req, ctx);
