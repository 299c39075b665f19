/**
 * Retrieval feedback over real HTTP, on PGlite and on PostgreSQL: validation, tenant isolation, feedback
 * right after a retrieve, feedback that changes later ranking, and a user correction end to end (job,
 * retrieval, claim revision ledger).
 */
import { describe, expect, it } from 'vitest';
import { Api, servers, tenantApi } from './client';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const FEEDBACK = '/v1/memories/retrieval-feedback';

async function remember(api: Api, user: string, content: string) {
  const add = await api.post('/v1/memories/add', { external_user_id: user, messages: [{ role: 'user', content }] });
  expect(add.body.status).toBe('queued');
  const job = await api.waitForJob(add.body.job_id);
  expect(job.status).toBe('completed');
}

const retrieve = (api: Api, user: string, query: string) => api.post('/v1/memories/retrieve', { external_user_id: user, query });
const idOf = (r: { body: any }, content: string) => r.body.data.find((m: any) => m.content === content)?.id as string;

describe.each(servers())('retrieval feedback on $name', (server) => {
  it('validates the body against the retrieval and answers 404 for another tenant’s retrieval', async () => {
    const api = await tenantApi(server);
    await remember(api, 'v1', 'I live in Lisbon. I love jazz.');
    const r = await retrieve(api, 'v1', 'jazz');
    expect(r.body.retrieval_id).toMatch(UUID);
    const rid = r.body.retrieval_id;

    const cases: [Record<string, unknown>, string][] = [
      [{ outcome: 'ignored' }, 'retrieval_id'],
      [{ retrieval_id: rid, outcome: 'great' }, 'outcome'],
      [{ retrieval_id: rid }, 'outcome'],
      [{ retrieval_id: rid, outcome: 'ignored', agent_confidence: 1.5 }, 'agent_confidence'],
      [{ retrieval_id: rid, outcome: 'ignored', agent_confidence: '0.5' }, 'agent_confidence'],
      [{ retrieval_id: rid, outcome: 'user_corrected' }, 'correction'],
      [{ retrieval_id: rid, outcome: 'used_successfully', correction: 'I live in Porto.' }, 'correction'],
      [{ retrieval_id: rid, outcome: 'used_successfully', used_memory_ids: ['not-an-id'] }, 'used_memory_ids[0]'],
      [{ retrieval_id: rid, outcome: 'used_successfully', used_memory_ids: [crypto.randomUUID()] }, 'used_memory_ids[0]'],
      [{ retrieval_id: rid, outcome: 'used_successfully', surprise: true }, '(body)'],
    ];
    for (const [body, path] of cases) {
      const res = await api.post(FEEDBACK, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors.map((e: any) => e.path), JSON.stringify(body)).toContain(path);
    }
    const unknownOutcome = await api.post(FEEDBACK, { retrieval_id: rid, outcome: 'great' });
    expect(unknownOutcome.body.errors[0].message).toMatch(/used_successfully, partially_used, ignored, irrelevant, missing_context, user_corrected/);

    const unknown = await api.post(FEEDBACK, { retrieval_id: crypto.randomUUID(), outcome: 'ignored' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'not_found', status: 404 });
    const other = await tenantApi(server);
    const foreign = await other.post(FEEDBACK, { retrieval_id: rid, outcome: 'ignored' });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('not_found');
    const anonymous = await api.withKey('mem_sk_invalid').post(FEEDBACK, { retrieval_id: rid, outcome: 'ignored' });
    expect(anonymous.status).toBe(401);

    // nothing above was recorded: the first valid feedback is accepted
    expect((await api.post(FEEDBACK, { retrieval_id: rid, outcome: 'ignored' })).status).toBe(200);
  });

  it('accepts feedback sent right after the retrieve, once per outcome, and replays an Idempotency-Key', async () => {
    const api = await tenantApi(server);
    await remember(api, 'f1', 'I love opera.');
    const r = await retrieve(api, 'f1', 'opera');
    const opera = idOf(r, 'The user loves opera.');
    const body = { retrieval_id: r.body.retrieval_id, outcome: 'used_successfully', used_memory_ids: [opera], agent_confidence: 0.9, metadata: { conversation_id: 'c1' } };
    // no pause: the retrieval record is still in the batched writer when this arrives
    const res = await api.post(FEEDBACK, body, { 'Idempotency-Key': 'fb-1' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        feedback_id: expect.stringMatching(UUID),
        retrieval_id: r.body.retrieval_id,
        outcome: 'used_successfully',
        used_memory_ids: [opera],
        memories_updated: 1,
        correction_job_id: null,
        created_at: expect.any(String),
      },
      request_id: expect.stringMatching(UUID),
      timestamp: expect.any(String),
    });
    const replay = await api.post(FEEDBACK, body, { 'Idempotency-Key': 'fb-1' });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(res.body);

    const again = await api.post(FEEDBACK, { retrieval_id: r.body.retrieval_id, outcome: 'used_successfully' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'conflict', feedback_id: res.body.data.feedback_id });

    const after = await retrieve(api, 'f1', 'opera');
    expect(after.body.data[0].importance_score).toBeGreaterThan(r.body.data[0].importance_score);
  });

  it('changes later ranking: negative feedback on the first memory and positive on the second swap them', async () => {
    const api = await tenantApi(server);
    await remember(api, 'rk', 'I like green tea. I drink green tea every morning with honey and lemon.');
    const A = 'The user likes green tea.';
    const B = 'The user drinks green tea every morning with honey and lemon.';
    const first = await retrieve(api, 'rk', 'green tea');
    expect(first.body.data.map((m: any) => m.content)).toEqual([A, B]);
    const a = idOf(first, A);
    const b = idOf(first, B);
    const relevanceOf = (r: { body: any }, id: string) => r.body.data.find((m: any) => m.id === id).relevance_score as number;

    let current = first;
    let rounds = 0;
    while (current.body.data[0].id === a) {
      expect(rounds, 'B should overtake A within 10 rounds of feedback').toBeLessThan(10);
      const rid = current.body.retrieval_id;
      expect((await api.post(FEEDBACK, { retrieval_id: rid, outcome: 'irrelevant', used_memory_ids: [a] })).status).toBe(200);
      expect((await api.post(FEEDBACK, { retrieval_id: rid, outcome: 'used_successfully', used_memory_ids: [b] })).status).toBe(200);
      const next = await retrieve(api, 'rk', 'green tea');
      expect(relevanceOf(next, a)).toBeLessThan(relevanceOf(current, a));
      expect(relevanceOf(next, b)).toBeGreaterThan(relevanceOf(current, b));
      current = next;
      rounds++;
    }
    expect(rounds).toBeGreaterThan(0);
    expect(current.body.data.map((m: any) => m.content)).toEqual([B, A]);
    expect(current.body.data[1].importance_score).toBeLessThan(first.body.data[0].importance_score);
  });

  it('applies a user correction: job id at once, the job supersedes the wrong memory, retrieval and ledger show it', async () => {
    const api = await tenantApi(server);
    await remember(api, 'cx', 'I live in Lisbon.');
    const r = await retrieve(api, 'cx', 'where do I live');
    expect(r.body.data.map((m: any) => m.content)).toEqual(['The user lives in Lisbon.']);
    const lisbon = r.body.data[0].id;

    const fb = await api.post(FEEDBACK, {
      retrieval_id: r.body.retrieval_id,
      outcome: 'user_corrected',
      used_memory_ids: [lisbon],
      correction: 'Actually I live in Porto now',
      agent_confidence: 0.8,
    });
    expect(fb.status).toBe(200);
    expect(fb.body.data).toMatchObject({ outcome: 'user_corrected', correction_job_id: expect.stringMatching(UUID), used_memory_ids: [lisbon] });
    const jobId = fb.body.data.correction_job_id;

    const job = await api.waitForJob(jobId);
    expect(job).toMatchObject({
      job_id: jobId,
      status: 'completed',
      memories_created: 1,
      queue_name: 'memory-correction',
      external_user_id: 'cx',
      extraction_metadata: {
        kind: 'correction',
        retrieval_feedback_id: fb.body.data.feedback_id,
        memories_superseded: 1,
        superseded_memory_ids: [lisbon],
      },
    });

    const after = await retrieve(api, 'cx', 'where do I live');
    const contents = after.body.data.map((m: any) => m.content);
    expect(contents).toContain('The user lives in Porto now.');
    expect(contents).not.toContain('The user lives in Lisbon.');
    const porto = idOf(after, 'The user lives in Porto now.');
    expect(after.body.data.find((m: any) => m.id === porto).provenance).toMatchObject({
      service: 'default',
      event_id: `feedback_${fb.body.data.feedback_id}`,
      job_id: jobId,
      evidence: [{ source_type: 'retrieval_feedback', reference: fb.body.data.feedback_id }],
    });

    const bundle = await api.get('/v1/users/me/export?external_user_id=cx');
    expect(bundle.status).toBe(200);
    expect(bundle.body.data.memories.find((m: any) => m.id === lisbon).status).toBe('inactive');
    const history = bundle.body.data.claim_revisions.filter((c: any) => c.memory_id === lisbon);
    expect(history.map((h: any) => h.action)).toEqual(['created', 'superseded']);
    expect(history[1]).toMatchObject({
      from_status: 'active',
      to_status: 'inactive',
      reason: `corrected by the user via retrieval feedback ${fb.body.data.feedback_id}`,
      actor: `feedback:${fb.body.data.feedback_id}`,
      job_id: jobId,
      details: expect.objectContaining({ superseded_by: porto }),
    });
    expect(bundle.body.data.extraction_jobs.map((j: any) => j.job_id)).toContain(jobId);
    expect(bundle.body.data.retrieval_feedback).toEqual([
      {
        id: fb.body.data.feedback_id,
        retrieval_id: r.body.retrieval_id,
        outcome: 'user_corrected',
        used_memory_ids: [lisbon],
        correction: 'Actually I live in Porto now',
        agent_confidence: expect.closeTo(0.8, 5),
        metadata: {},
        correction_job_id: jobId,
        created_at: expect.any(String),
      },
    ]);
  });

  it('documents the endpoint in the OpenAPI document', async () => {
    const doc = await new Api(server).get('/v1/openapi.json');
    expect(doc.status).toBe(200);
    const op = doc.body.paths[FEEDBACK]?.post;
    expect(op).toBeDefined();
    expect(Object.keys(op.responses).sort()).toEqual(['200', '401', '404', '409', '422', '429']);
    expect(doc.body.components.schemas.FeedbackOutcome.enum).toEqual([
      'used_successfully',
      'partially_used',
      'ignored',
      'irrelevant',
      'missing_context',
      'user_corrected',
    ]);
  });
});
