/**
 * @memory/client (packages/client) against real servers on both engines: the flows an integrator's backend runs,
 * through the client's methods only (tenant creation aside): add, addAndWait by polling and by a verified webhook,
 * retrieve, list by async iteration, feedback (with the idempotency key replayed), delete, writers, keys, webhooks
 * (a real delivery verified with the client's WebCrypto verifier), the other groups' reads, typed errors, and the
 * universal store with an agent key and X-Service-UUI (passport approval as in passport-flow.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobWaiter, MemoryApiError, MemoryClient, WebhookVerificationError, verifyWebhook } from '../../packages/client/src/index';
import { Api, servers } from './client';
import { data, rand, signInPassport } from './passport-flow';
import { WebhookReceiver } from './webhook-receiver';

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await WebhookReceiver.start();
});
afterAll(async () => receiver.close());

const say = (user: string, content: string) => ({ external_user_id: user, messages: [{ role: 'user' as const, content }] });

describe.each(servers())('the TypeScript client on $name', (server) => {
  let client: MemoryClient;
  let apiKey: string;
  const user = `ts-client-${rand()}`;

  beforeAll(async () => {
    apiKey = (await new Api(server).createTenant()).api_key;
    client = new MemoryClient({ baseUrl: server.baseUrl, apiKey });
  });

  it('adds and waits, retrieves, lists by iteration, sends feedback once, deletes', async () => {
    const first = await client.memories.addAndWait(say(user, 'I live in Lisbon and I work as a nurse.'));
    expect(first.add.status).toBe('queued');
    expect(first.job?.status).toBe('completed');
    await client.memories.addAndWait(say(user, 'My favourite drink is green tea.'));

    const retrieved = await client.memories.retrieve({ external_user_id: user, query: "Where does the user live?" });
    expect(retrieved.system_prompt_addition).toContain('Lisbon');
    expect(retrieved.data.some((m) => m.content.includes('Lisbon'))).toBe(true);

    const listed = [];
    for await (const m of client.memories.iterate({ external_user_id: user, limit: 1 })) listed.push(m);
    const page = await client.memories.list({ external_user_id: user, limit: 100 });
    expect(listed.length).toBeGreaterThanOrEqual(2);
    expect(listed.map((m) => m.id)).toEqual(page.items.map((m) => m.id));

    const key = `fb-${rand()}`;
    const feedback = { retrieval_id: retrieved.retrieval_id as string, outcome: 'used_successfully' as const };
    const once = await client.feedback.send(feedback, { idempotencyKey: key });
    const replay = await client.feedback.send(feedback, { idempotencyKey: key });
    expect(replay).toEqual(once);
    const again = await client.feedback.send(feedback).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(MemoryApiError);
    expect(again).toMatchObject({ status: 409, code: 'conflict' });

    const deleted = await client.memories.delete(listed[0].id);
    expect(deleted).toMatchObject({ id: listed[0].id });
    const after = [];
    for await (const m of client.memories.iterate({ external_user_id: user })) after.push(m.id);
    expect(after).not.toContain(listed[0].id);
    const direct = await client.memories.create({ external_user_id: user, content: 'The user plays the oboe.', category: 'expertise', metadata: { channel: 'ts' } });
    expect(direct).toMatchObject({ outcome: 'created', status: 'active' });
    const edited = await client.memories.update(direct.id, { importance: 0.9 });
    expect(edited.revisions.map((r) => r.action)).toEqual(['created', 'edited']);
    expect((await client.memories.get(direct.id)).importance_score).toBe(0.9);
    const byMetadata = await client.memories.list({ external_user_id: user, metadata_filter: JSON.stringify({ channel: 'ts' }) });
    expect(byMetadata.items.map((m) => m.id)).toEqual([direct.id]);
    const events = [];
    for await (const e of client.sourceEvents.iterate({ external_user_id: user, limit: 1 })) events.push(e);
    expect(events.length).toBeGreaterThanOrEqual(2);

    const receipt = await client.memories.eraseUser(user);
    expect(receipt).toMatchObject({ already_erased: false, counts: { end_user: 1, source_events: events.length } });
    expect((await client.memories.eraseUser(user)).receipt_id).toBe(receipt.receipt_id);
    expect(await client.memories.export({ external_user_id: user }).catch((e: unknown) => e)).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('throws typed errors carrying the problem code', async () => {
    const wrong = new MemoryClient({ baseUrl: server.baseUrl, apiKey: 'mem_sk_wrong' });
    await expect(wrong.memories.list({ external_user_id: user })).rejects.toMatchObject({ name: 'MemoryApiError', status: 401, code: 'unauthorized' });
    const invalid = await client.memories.retrieve({ external_user_id: user, query: 'x', limit: 0 }).catch((e: unknown) => e);
    expect(invalid).toMatchObject({ status: 422, code: 'validation_failed' });
    expect((invalid as MemoryApiError).requestId).toBeTruthy();
  });

  it('manages writers and keys, and reads the other groups', async () => {
    const writer = await client.writers.create({ service_key: `crm-${rand()}`, display_name: 'CRM', authority_rules: { default_priority: 10 } });
    expect((await client.writers.list()).map((w) => w.service_key)).toContain(writer.service_key);
    const key = await client.keys.create({ name: 'second' });
    expect((await client.keys.list()).some((k) => k.id === key.id)).toBe(true);
    const viaSecond = new MemoryClient({ baseUrl: server.baseUrl, apiKey: key.api_key });
    expect(await viaSecond.usage.get()).toBeTruthy();
    await client.keys.revoke(key.id);
    await expect(viaSecond.usage.get()).rejects.toMatchObject({ code: 'unauthorized' });
    expect((await client.reviews.list()).items).toEqual([]);
    expect(await client.domainSchema.get()).toBeTruthy();
    expect(await client.settings.get()).toBeTruthy();
    expect((await client.health.live()).status).toBe('ok');
  });

  it('resolves addAndWait from a webhook whose delivery it verifies', async () => {
    const path = `/ts-client-${rand()}`;
    const endpoint = await client.webhooks.create({ url: receiver.baseUrl + path, event_types: ['job.completed', 'job.failed'] });
    expect(endpoint.secret).toMatch(/^whsec_/);
    const waiter = new JobWaiter();
    let seen = 0;
    const pump = setInterval(() => {
      for (const r of receiver.at(path).slice(seen)) {
        seen++;
        void verifyWebhook(endpoint.secret, r.headers, r.body).then((v) => waiter.deliver(v.payload));
      }
    }, 20);
    try {
      const { job } = await client.memories.addAndWait(say(user, 'I have a dog called Rex.'), { waiter, timeoutMs: 30_000 });
      expect(job?.status).toBe('completed');
    } finally {
      clearInterval(pump);
    }
    const [delivery] = receiver.at(path);
    await expect(verifyWebhook(endpoint.secret, delivery.headers, `${delivery.body} `)).rejects.toBeInstanceOf(WebhookVerificationError);
    expect((await client.webhooks.get(endpoint.id)).url).toBe(receiver.baseUrl + path);
    const logged = [];
    for await (const d of client.webhooks.iterateDeliveries(endpoint.id, { limit: 1 })) logged.push(d);
    expect(logged.length).toBeGreaterThanOrEqual(1);
    const rotated = await client.webhooks.rotateSecret(endpoint.id);
    expect(rotated.secret).not.toBe(endpoint.secret);
    await client.webhooks.delete(endpoint.id);
    expect((await client.webhooks.list()).some((e) => e.id === endpoint.id)).toBe(false);
  });

  it('adds to and retrieves from the universal store with an agent key and X-Service-UUI', async () => {
    const passport = await signInPassport(server);
    const agent = await client.agents.create({ name: `Agent ${rand()}`, default_categories_requested: ['fact', 'preference'] });
    expect((await client.agents.get(agent.id)).name).toBe(agent.name);
    const link = await client.linkTokens.create({ agent_id: agent.id, external_user_id: `customer-${rand()}` });
    const approved = await passport.browser.mutate('approveLink', { agentId: agent.id, linkToken: link.link_token, categories: ['fact'], accessType: 'read_write' });
    expect(approved.status, JSON.stringify(data(approved))).toBe(200);
    const agentClient = new MemoryClient({ baseUrl: server.baseUrl, apiKey: agent.raw_agent_api_key });
    const { uui_token } = await agentClient.agents.exchangeLinkToken({ link_token: link.link_token });
    const { add, job } = await agentClient.universal.addAndWait(uui_token, { messages: [{ role: 'user', content: 'I live in Porto.' }] });
    expect(add.status).toBe('queued');
    expect(job?.status).toBe('completed');
    const found = await agentClient.universal.retrieve(uui_token, { query: 'Where does the user live?' });
    expect(JSON.stringify(found)).toContain('Porto');
    await expect(agentClient.universal.retrieve('mem_uui_wrong', { query: 'x' })).rejects.toMatchObject({ status: 401 });
  });
});
