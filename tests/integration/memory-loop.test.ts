/**
 * The tenant memory loop over real HTTP, on the embedded default (PGlite) and on PostgreSQL:
 * add -> extraction job -> retrieve, in all three formats.
 */
import { describe, expect, it } from 'vitest';
import { Api, servers, tenantApi } from './client';

const CONVERSATION = [
  { role: 'user', content: "I'm a vegetarian and I live in Lisbon. I'm training for a marathon in April." },
  { role: 'assistant', content: 'That sounds great! How is the training going?' },
];

/** Asks about all three facts: retrieval returns only what matches the query (the relevance floor). */
const ALL = 'is the user a vegetarian? where does the user live? when is the marathon?';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(servers())('memory loop on $name', (server) => {
  it('adds a conversation, completes the job and retrieves the memories in every format', async () => {
    const api = await tenantApi(server);
    const add = await api.post('/v1/memories/add', { external_user_id: 'u1', messages: CONVERSATION });
    expect(add.status).toBe(200);
    expect(add.body).toEqual({
      job_id: expect.stringMatching(UUID),
      status: 'queued',
      blocked_reason: null,
      nothing_to_extract: false,
      retry_after_seconds: null,
      budget_remaining_pct: null,
      quota_mode: 'FULL',
      processing_eta_seconds: null,
      processing_status: 'normal',
      request_id: expect.stringMatching(UUID),
      timestamp: expect.any(String),
    });

    const job = await api.waitForJob(add.body.job_id);
    expect(job).toMatchObject({
      job_id: add.body.job_id,
      status: 'completed',
      memories_created: 3,
      pending_candidates_buffered: 0,
      pending_candidates_promoted: 0,
      attempts: 1,
      queue_name: 'memory-extraction',
      error: null,
      error_summary: null,
      extraction_metadata: {
        // the compositional pass: "the user" and Lisbon, and "the user lives_in Lisbon"
        compositional_pass_attempted: true,
        compositional_pass_used: true,
        compositional_entities: 2,
        compositional_relationships: 1,
        compositional_error: null,
        provider: 'builtin',
      },
    });

    const bullets = await api.post('/v1/memories/retrieve', { external_user_id: 'u1', query: ALL });
    expect(bullets.status).toBe(200);
    const contents = bullets.body.data.map((m: any) => m.content).sort();
    expect(contents).toEqual(
      ['The user is a vegetarian.', 'The user is training for a marathon in April.', 'The user lives in Lisbon.'].sort(),
    );
    expect(bullets.body.data[0].content).toBe('The user is a vegetarian.');
    expect(bullets.body).toMatchObject({
      retrieval_id: expect.stringMatching(UUID),
      cached: false,
      memories_from_hot_tier: 0,
      clarification_question: null,
      quota_mode: 'FULL',
      budget_remaining_pct: null,
      is_degraded: false,
      is_passthrough: false,
      request_id: expect.stringMatching(UUID),
    });
    const lines = bullets.body.system_prompt_addition.split('\n');
    expect(lines.length).toBe(4);
    expect(lines[0]).not.toMatch(/^- /);
    for (const l of lines.slice(1)) expect(l).toMatch(/^- The user /);
    expect(bullets.body.context_token_count).toBeGreaterThan(0);
    for (const m of bullets.body.data) {
      expect(m).toEqual({
        id: expect.stringMatching(UUID),
        content: expect.any(String),
        category: expect.any(String),
        importance_score: expect.any(Number),
        last_accessed: null,
        relevance_score: expect.any(Number),
        context_snippet: `- ${m.content}`,
        source_event_id: expect.stringMatching(UUID),
        provenance: expect.objectContaining({
          service: 'default',
          event_id: expect.stringMatching(/^evt_/),
          payload_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
          message_indices: [0],
          job_id: add.body.job_id,
        }),
      });
    }
    const byContent = Object.fromEntries(bullets.body.data.map((m: any) => [m.content, m.category]));
    expect(byContent['The user is training for a marathon in April.']).toBe('goal');

    const json = await api.post('/v1/memories/retrieve', { external_user_id: 'u1', query: 'the marathon in April, vegetarian food, Lisbon', format: 'json' });
    const parsed = JSON.parse(json.body.system_prompt_addition);
    expect(Object.values(parsed.memories).flat().sort()).toEqual(contents);
    expect(parsed.memories.goal).toEqual(['The user is training for a marathon in April.']);
    expect(json.body.data[0].content).toBe('The user is training for a marathon in April.');
    // the second retrieve sees the access recorded by the first, and is served from the hot tier
    expect(json.body.data[0].last_accessed).not.toBeNull();
    expect(json.body.cached).toBe(true);
    expect(json.body.memories_from_hot_tier).toBe(3);

    const xml = await api.post('/v1/memories/retrieve', { external_user_id: 'u1', query: 'where in Lisbon does the user live, vegetarian, marathon', format: 'xml' });
    const block: string = xml.body.system_prompt_addition;
    expect(block).toMatch(/<memory_context>[\s\S]*<\/memory_context>$/);
    expect(block.match(/<memory category="[a-z]+">[^<]+<\/memory>/g)?.length).toBe(3);
    expect(xml.body.data[0].context_snippet).toBe('<memory category="fact">The user lives in Lisbon.</memory>');

    // a new memory changes the user's version: the hot tier is bypassed and the new fact is there at once
    const more = await api.post('/v1/memories/add', { external_user_id: 'u1', messages: [{ role: 'user', content: 'I have a cat named Miso.' }] });
    await api.waitForJob(more.body.job_id);
    const fresh = await api.post('/v1/memories/retrieve', { external_user_id: 'u1', query: 'does the user have a cat?' });
    expect(fresh.body.cached).toBe(false);
    expect(fresh.body.memories_from_hot_tier).toBe(0);
    expect(fresh.body.data.map((m: any) => m.content)).toContain('The user has a cat named Miso.');
  });

  it('keeps the context block within context_max_tokens and drops lower-importance memories first', async () => {
    const api = await tenantApi(server);
    const add = await api.post('/v1/memories/add', { external_user_id: 'u2', messages: CONVERSATION });
    await api.waitForJob(add.body.job_id);
    for (const budget of [0, 10, 25, 40, 500]) {
      const r = await api.post('/v1/memories/retrieve', {
        external_user_id: 'u2',
        query: ALL,
        context_max_tokens: budget,
      });
      expect(r.status).toBe(200);
      expect(r.body.context_token_count).toBeLessThanOrEqual(budget);
      expect(r.body.data.length).toBe(3);
      for (const line of r.body.system_prompt_addition.split('\n').slice(1)) {
        expect(r.body.data.map((m: any) => `- ${m.content}`)).toContain(line);
      }
    }
  });

  it('filters by category, agent and limit, and answers an unknown user with an empty result', async () => {
    const api = await tenantApi(server);
    const a = await api.post('/v1/memories/add', { external_user_id: 'u3', agent_id: 'coach', messages: CONVERSATION });
    await api.waitForJob(a.body.job_id);
    const goals = await api.post('/v1/memories/retrieve', { external_user_id: 'u3', query: ALL, categories: ['goal'] });
    expect(goals.body.data.map((m: any) => m.category)).toEqual(['goal']);
    const byAgent = await api.post('/v1/memories/retrieve', { external_user_id: 'u3', query: ALL, agent_id: 'coach' });
    expect(byAgent.body.data.length).toBe(3);
    const otherAgent = await api.post('/v1/memories/retrieve', { external_user_id: 'u3', query: ALL, agent_id: 'other' });
    expect(otherAgent.body.data).toEqual([]);
    const limited = await api.post('/v1/memories/retrieve', { external_user_id: 'u3', query: ALL, limit: 1 });
    expect(limited.body.data.length).toBe(1);
    const recent = await api.post('/v1/memories/retrieve', { external_user_id: 'u3', query: ALL, time_filter_days: 1 });
    expect(recent.body.data.length).toBe(3);

    const nobody = await api.post('/v1/memories/retrieve', { external_user_id: 'nobody', query: 'hello' });
    expect(nobody.status).toBe(200);
    expect(nobody.body.data).toEqual([]);
    expect(nobody.body.system_prompt_addition).toBe('');
    expect(nobody.body.context_token_count).toBe(0);
  });

  it('keeps a standing request about the answers for the next conversation', async () => {
    const api = await tenantApi(server);
    const messages = [
      { role: 'user', content: 'From now on, please answer in Spanish. Can you suggest a quick dinner recipe?' },
      { role: 'assistant', content: 'Claro. Prueba una tortilla de patatas.' },
    ];
    const add = await api.post('/v1/memories/add', { external_user_id: 'u4', messages });
    expect(add.status).toBe(200);
    await api.waitForJob(add.body.job_id);
    const res = await api.post('/v1/memories/retrieve', { external_user_id: 'u4', query: 'Which language should I answer in?' });
    expect(res.status).toBe(200);
    expect(res.body.data[0], JSON.stringify(res.body.data)).toMatchObject({
      content: 'The user wants the assistant to answer in Spanish from now on.',
      category: 'preference',
      provenance: expect.objectContaining({ message_indices: [0] }),
    });
    expect(res.body.system_prompt_addition).toContain('The user wants the assistant to answer in Spanish from now on.');
    // what an agent asks at the start of a conversation for every standing preference
    const profile = await api.post('/v1/memories/retrieve', {
      external_user_id: 'u4',
      query: 'What do you know about the user?',
      categories: ['preference'],
    });
    expect(profile.body.data.map((m: any) => m.content)).toEqual(['The user wants the assistant to answer in Spanish from now on.']);
  });

  it('serves the OpenAPI document and the reference page', async () => {
    const api = new Api(server);
    const doc = await api.get('/v1/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    const resolve = (s: any): any => (s.$ref ? resolve(doc.body.components.schemas[s.$ref.split('/').pop()]) : s);
    const add = doc.body.paths['/v1/memories/add'].post;
    const props = resolve(add.requestBody.content['application/json'].schema).properties;
    expect(Object.keys(props).sort()).toEqual(['agent_id', 'external_user_id', 'messages', 'metadata', 'source']);
    expect(resolve(props.messages.items).properties.role.enum).toEqual(['user', 'assistant', 'system']);
    const retrieve = resolve(doc.body.paths['/v1/memories/retrieve'].post.requestBody.content['application/json'].schema);
    expect(retrieve.properties.limit).toMatchObject({ maximum: 50, default: 10 });
    const response = resolve(doc.body.paths['/v1/memories/retrieve'].post.responses['200'].content['application/json'].schema);
    expect(response.required).toEqual(expect.arrayContaining(['retrieval_id', 'data', 'system_prompt_addition', 'quota_mode']));
    const page = await fetch(`${server.baseUrl}/docs/api`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('/v1/memories/retrieve');
    expect(html).toContain('context_max_tokens');
  });
});
