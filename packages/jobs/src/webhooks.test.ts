import { createServer } from 'node:http';
import {
  type WebhookSettings,
  claimJobId,
  createWebhookEndpoint,
  loadConfig,
  recordFailure,
  recordWebhookEvent,
  revokeGrant,
  takeUndispatchedWebhookDeliveries,
  upsertGrant,
} from '@memory/core';
import { type Database, eq, extractionJobs, rows, sql } from '@memory/db';
import { verifyWebhook } from '@memory/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInngestClient } from './inngest';
import { createPassportFixture, openTestDatabase, queueConversation } from './test-support';
import {
  WEBHOOK_DELIVERY_REQUESTED,
  WebhookDispatcher,
  createWebhookDeliveryFunction,
  createWebhookRelayFunction,
  runWebhookDelivery,
} from './webhooks';

let database: Database;
let receiverUrl: string;
const received: { path: string; headers: Record<string, string>; body: string }[] = [];
/** Status codes per path, in order; the last repeats. */
const script: Record<string, number[]> = { '/flaky': [503, 200] };
const served = new Map<string, number>();
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const path = req.url ?? '/';
    received.push({ path, headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString() });
    const n = served.get(path) ?? 0;
    served.set(path, n + 1);
    const codes = script[path] ?? [200];
    res.writeHead(codes[Math.min(n, codes.length - 1)]).end();
  });
});

const settings = (over: Partial<WebhookSettings> = {}): WebhookSettings => ({
  ...loadConfig({ MEMORY_WEBHOOKS_ALLOW_PRIVATE: 'true', MEMORY_WEBHOOK_RETRY_SCHEDULE: '1,1', MEMORY_WEBHOOK_TIMEOUT_MS: '2000' }).webhooks,
  ...over,
});

beforeAll(async () => {
  database = await openTestDatabase();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}, 60_000);
afterAll(async () => {
  await database.close();
  await new Promise((r) => server.close(r));
});

async function tenantWithEndpoint(path: string, types: Parameters<typeof recordWebhookEvent>[2][] = ['quota.mode_changed'], url = receiverUrl + path) {
  const { auth } = await queueConversation(database, "I'm a vegetarian.");
  const endpoint = await createWebhookEndpoint(database.db, auth, { url, description: '', event_types: types }, settings());
  return { tenantId: auth.tenantId, endpoint };
}

const deliveriesOf = (endpointId: string) =>
  rows<{ id: string; status: string; attempts: number; last_status_code: number | null; last_error: string | null; event_type: string }>(
    database.db,
    sql`SELECT id, status, attempts, last_status_code, last_error, event_type FROM webhook_deliveries WHERE endpoint_id = ${endpointId}`,
  );

describe('webhook delivery as an Inngest function body', () => {
  it('attempts, sleeps until the next attempt of the schedule, and attempts again until the receiver accepts', async () => {
    const { tenantId, endpoint } = await tenantWithEndpoint('/flaky');
    expect(await recordWebhookEvent(database.db, tenantId, 'quota.mode_changed', { from: 'FULL', to: 'DEGRADED_RETRIEVE' })).toBe(1);
    const [delivery] = await deliveriesOf(endpoint.id);
    const steps: string[] = [];
    const sleeps: number[] = [];
    const outcome = await runWebhookDelivery(
      delivery.id,
      {
        run: async (id, fn) => {
          steps.push(id);
          return fn();
        },
        // Inngest would wake the function at `until`; the test makes the delivery due instead of waiting.
        sleepUntil: async (id, until) => {
          steps.push(id);
          sleeps.push(Date.parse(until) - Date.now());
          await database.db.execute(sql`UPDATE webhook_deliveries SET next_attempt_at = now() WHERE id = ${delivery.id}`);
        },
      },
      { db: database.db, settings: settings() },
    );
    expect(outcome).toMatchObject({ status: 'succeeded', statusCode: 200 });
    expect(steps).toEqual(['attempt-1', 'wait-1', 'attempt-2']);
    expect(sleeps[0]).toBeGreaterThan(500);
    expect(sleeps[0]).toBeLessThanOrEqual(1200);
    const calls = received.filter((r) => r.path === '/flaky');
    expect(calls).toHaveLength(2);
    expect(verifyWebhook(endpoint.secret, calls[1].headers, calls[1].body).payload).toMatchObject({
      type: 'quota.mode_changed',
      data: { from: 'FULL', to: 'DEGRADED_RETRIEVE' },
    });
    expect(await deliveriesOf(endpoint.id)).toMatchObject([{ status: 'succeeded', attempts: 2, last_status_code: 200 }]);
  });

  it('registers the delivery function on its event and the relay as a cron', () => {
    type Config = { id: string; triggers: unknown[] };
    const config = (fn: unknown) =>
      (fn as { getConfig(o: { baseUrl: URL; appPrefix: string }): Config[] }).getConfig({
        baseUrl: new URL('http://127.0.0.1/api/inngest'),
        appPrefix: 'memory-service',
      })[0];
    const deps = async () => ({ db: database.db, settings: settings() });
    expect(config(createWebhookDeliveryFunction(createInngestClient(), deps)).triggers).toEqual([{ event: WEBHOOK_DELIVERY_REQUESTED }]);
    expect(config(createWebhookRelayFunction(createInngestClient(), deps)).triggers).toEqual([{ cron: 'TZ=UTC * * * * *' }]);
  });

  it('hands each new delivery to Inngest once', async () => {
    const { tenantId } = await tenantWithEndpoint('/relay');
    await takeUndispatchedWebhookDeliveries(database.db, 1000);
    await recordWebhookEvent(database.db, tenantId, 'quota.mode_changed', { to: 'BLOCKED' });
    const first = await takeUndispatchedWebhookDeliveries(database.db, 1000);
    expect(first.map((d) => d.tenant_id)).toEqual([tenantId]);
    expect(await takeUndispatchedWebhookDeliveries(database.db, 1000)).toEqual([]);
  });
});

describe('the embedded dispatcher', () => {
  it('refuses at connect time an address that became private when the operator does not allow it', async () => {
    const { tenantId, endpoint } = await tenantWithEndpoint('/never', ['quota.mode_changed'], `${receiverUrl.replace('127.0.0.1', 'localhost')}/never`);
    await recordWebhookEvent(database.db, tenantId, 'quota.mode_changed', { to: 'FULL' });
    // the receiver's port is allowed, so what refuses the delivery is the address the name resolves to
    const allowedPorts = [Number(new URL(receiverUrl).port)];
    const dispatcher = new WebhookDispatcher({ db: database.db, settings: settings({ allowPrivate: false, allowedPorts }) }, { pollMs: 20 });
    // other tests' deliveries share the database: drain attempts them too
    expect(await dispatcher.drain()).toBeGreaterThanOrEqual(1);
    expect(await deliveriesOf(endpoint.id)).toMatchObject([{ status: 'pending', attempts: 1, last_status_code: null, last_error: 'refused: private address' }]);
    expect(received.filter((r) => r.path === '/never')).toHaveLength(0);
  });
});

describe('webhook events from jobs and grants', () => {
  it('records job.failed when a job is dead, in the transaction that marks it', async () => {
    const { auth, jobId } = await queueConversation(database, "I'm a vegetarian.");
    const endpoint = await createWebhookEndpoint(database.db, auth, { url: `${receiverUrl}/jobs`, description: '', event_types: ['job.failed'] }, settings());
    await database.db.update(extractionJobs).set({ maxAttempts: 1 }).where(eq(extractionJobs.id, jobId));
    expect(await claimJobId(database.db, 'extraction_jobs', { workerId: 'test', leaseSeconds: 30, jobId })).toBe(jobId);
    const outcome = await recordFailure(database.db, { id: jobId, attempts: 1, maxAttempts: 1 }, new Error('provider down'), { backoffBaseMs: 10 });
    expect(outcome.status).toBe('dead');
    const [event] = await rows<{ payload: { type: string; data: Record<string, unknown> } }>(
      database.db,
      sql`SELECT e.payload FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE d.endpoint_id = ${endpoint.id}`,
    );
    expect(event.payload).toMatchObject({
      type: 'job.failed',
      data: { job_id: jobId, status: 'dead', kind: 'extraction', external_user_id: 'u1', error_summary: expect.stringContaining('provider down') },
    });
  });

  it('tells the agent’s tenant about grants created and revoked, without the passport user', async () => {
    const fx = await createPassportFixture(database);
    const endpoint = await createWebhookEndpoint(
      database.db,
      { tenantId: fx.tenantId, actor: 'admin:00000000-0000-4000-8000-000000000001' },
      { url: `${receiverUrl}/grants`, description: '', event_types: ['grant.created', 'grant.revoked'] },
      settings(),
    );
    const { id } = await upsertGrant(database.db, fx.passportUserId, { agent_id: fx.agentId, categories: ['preference'], access_type: 'read_only' });
    await upsertGrant(database.db, fx.passportUserId, { agent_id: fx.agentId, categories: ['preference', 'fact'], access_type: 'read_only' });
    await revokeGrant(database.db, fx.passportUserId, id);
    await revokeGrant(database.db, fx.passportUserId, id);
    const events = await rows<{ payload: { type: string; data: Record<string, unknown> } }>(
      database.db,
      sql`SELECT e.payload FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE d.endpoint_id = ${endpoint.id} ORDER BY e.created_at, d.created_at`,
    );
    expect(events.map((e) => e.payload.type)).toEqual(['grant.created', 'grant.revoked']);
    expect(events[0].payload.data).toEqual({ grant_id: id, agent_id: fx.agentId, categories: ['preference'], access_type: 'read_only' });
    expect(JSON.stringify(events)).not.toContain(fx.passportUserId);
  });
});
