/**
 * The evidence layer over real HTTP on both engines (docs/evidence-layer.md): what was said — the
 * assistant's advice included, with the question it answered — is retrievable later with provenance to its
 * messages; an unrelated query
 * gets nothing (no padding); the `categories` filter treats passages as `conversation`; a relative date in
 * the question counts from `reference_time`.
 */
import { describe, expect, it } from 'vitest';
import { servers, tenantApi } from './client';

const ADVICE = [
  { role: 'user', content: 'My scalp has been itchy for a week. What can I do about it?' },
  {
    role: 'assistant',
    content:
      'You could try tea tree oil, but never put it on undiluted. Dilute it first: mix two or three drops with a teaspoon of coconut oil, then massage it in and rinse after ten minutes.',
  },
  { role: 'user', content: 'Thanks, I will try that tonight.' },
];

describe.each(servers())('evidence layer on $name', (server) => {
  it('returns advice the assistant gave, as what the assistant replied to the user, with provenance to both messages', async () => {
    const api = await tenantApi(server);
    expect((await api.post('/v1/tenant/service-writers', { service_key: 'chat', display_name: 'Chat', authority_rules: { default_priority: 100 } })).status).toBe(201);
    const add = await api.post('/v1/memories/add', {
      external_user_id: 'ev1',
      messages: ADVICE,
      source: { service: 'chat', event_id: 'ev1-s1', observed_at: '2026-05-21T19:50:00Z' },
    });
    expect(add.status).toBe(200);
    const job = await api.waitForJob(add.body.job_id);
    expect(job.status).toMatch(/^(completed|processed)$/);
    expect(job.extraction_metadata.passages_indexed).toBe(3);
    const other = await api.post('/v1/memories/add', {
      external_user_id: 'ev1',
      messages: [{ role: 'user', content: 'I live in Lisbon and I love jazz.' }],
    });
    await api.waitForJob(other.body.job_id);

    const r = await api.post('/v1/memories/retrieve', { external_user_id: 'ev1', query: 'what did you tell me about diluting tea tree oil?' });
    expect(r.status).toBe(200);
    const advice = r.body.data[0];
    expect(advice).toMatchObject({
      category: 'conversation',
      content: `On 21 May 2026 the user said: "${ADVICE[0].content}" and the assistant replied: "${ADVICE[1].content}"`,
      importance_score: 0,
      source_event_id: expect.any(String),
      provenance: { service: 'chat', event_id: 'ev1-s1', message_indices: [0, 1], job_id: add.body.job_id, payload_hash: expect.any(String) },
    });
    // the question is quoted in the reply's item, so it is not returned a second time on its own
    expect(r.body.data.filter((m: any) => m.category === 'conversation' && m.provenance.message_indices.includes(0))).toHaveLength(1);
    // the passage is evidence, not a fact about the user, and it is what the block ends with
    expect(r.body.data.some((m: any) => /Lisbon/.test(m.content))).toBe(false);
    expect(r.body.system_prompt_addition).toContain('the assistant replied: "You could try tea tree oil');
    expect(r.body.context_token_count).toBeGreaterThan(0);
    expect(r.body.context_token_count).toBeLessThanOrEqual(500);

    // the categories filter: passages are `conversation`
    const factsOnly = await api.post('/v1/memories/retrieve', { external_user_id: 'ev1', query: 'tea tree oil', categories: ['fact', 'preference'] });
    expect(factsOnly.body.data.every((m: any) => m.category !== 'conversation')).toBe(true);
    const conversationOnly = await api.post('/v1/memories/retrieve', { external_user_id: 'ev1', query: 'tea tree oil', categories: ['conversation'] });
    expect(conversationOnly.body.data.length).toBeGreaterThan(0);
    expect(conversationOnly.body.data.every((m: any) => m.category === 'conversation')).toBe(true);
    // agent_id applies to passages too: nothing of this conversation was said to that agent
    const otherAgent = await api.post('/v1/memories/retrieve', { external_user_id: 'ev1', query: 'tea tree oil', agent_id: 'coach' });
    expect(otherAgent.body.data).toEqual([]);
  });

  it('keeps what was said when the gate finds nothing to extract: a question and the answer it got', async () => {
    const api = await tenantApi(server);
    const add = await api.post('/v1/memories/add', {
      external_user_id: 'ev3',
      messages: [
        { role: 'user', content: 'How long should green tea steep?' },
        { role: 'assistant', content: 'Steep green tea for two to three minutes in water at about 80 degrees Celsius.' },
      ],
    });
    expect(add.body).toMatchObject({ status: 'passthrough', nothing_to_extract: true, job_id: null });
    const r = await api.post('/v1/memories/retrieve', { external_user_id: 'ev3', query: 'how many minutes to steep green tea' });
    // one item: the answer, quoting the question it answers (both messages cited)
    expect(r.body.data).toHaveLength(1);
    expect(r.body.data[0]).toMatchObject({ category: 'conversation', provenance: { message_indices: [0, 1] } });
    expect(r.body.data[0].content).toMatch(/the user said: "How long should green tea steep\?" and the assistant replied: "Steep green tea for two to three minutes/);
    expect(await api.get('/v1/memories?external_user_id=ev3')).toMatchObject({ body: { data: { items: [] } } });
  });

  it('gives an unrelated query nothing: no padding with memories that do not match', async () => {
    const api = await tenantApi(server);
    const add = await api.post('/v1/memories/add', {
      external_user_id: 'ev2',
      messages: [{ role: 'user', content: "I'm a vegetarian and I live in Lisbon. I'm training for a marathon in April." }],
    });
    await api.waitForJob(add.body.job_id);
    const related = await api.post('/v1/memories/retrieve', { external_user_id: 'ev2', query: 'where does the user live?' });
    expect(related.body.data[0].content).toBe('The user lives in Lisbon.');
    const unrelated = await api.post('/v1/memories/retrieve', { external_user_id: 'ev2', query: 'quantum chromodynamics lecture notes' });
    expect(unrelated.status).toBe(200);
    expect(unrelated.body.data).toEqual([]);
    expect(unrelated.body.system_prompt_addition).toBe('');
    expect(unrelated.body.context_token_count).toBe(0);
  });
});

describe.each(servers())('extraction of dated events on $name', (server) => {
  it('keeps "I just finished X today" as an event with its date, and finds it later', async () => {
    const api = await tenantApi(server);
    await api.post('/v1/tenant/service-writers', { service_key: 'books', display_name: 'Books', authority_rules: { default_priority: 50 } });
    const add = await api.post('/v1/memories/add', {
      external_user_id: 'ev4',
      messages: [
        { role: 'user', content: 'I just finished reading The Left Hand of Darkness today, what should I read next?' },
        { role: 'assistant', content: 'If you liked it, try The Dispossessed, also by Ursula K. Le Guin.' },
      ],
      source: { service: 'books', event_id: 'b1', observed_at: '2026-03-14T18:00:00Z' },
    });
    expect(add.status).toBe(200);
    expect((await api.waitForJob(add.body.job_id)).status).toBe('completed');
    const list = await api.get('/v1/memories?external_user_id=ev4');
    const contents = list.body.data.items.map((m: any) => [m.category, m.content]);
    expect(contents).toContainEqual(['event', 'The user finished reading The Left Hand of Darkness on 14 March 2026.']);
    const r = await api.post('/v1/memories/retrieve', { external_user_id: 'ev4', query: 'when did the user finish The Left Hand of Darkness?' });
    expect(r.body.data[0]).toMatchObject({ category: 'event', content: 'The user finished reading The Left Hand of Darkness on 14 March 2026.' });
  });
});

/**
 * One add per [event id, observed_at, content] from `service`, each accepted and its job completed; with
 * `questions`, an add may have no job (a question alone has nothing to extract).
 */
async function addSaid(api: Awaited<ReturnType<typeof tenantApi>>, user: string, service: string, said: string[][], questions = false) {
  for (const [eventId, observedAt, content] of said) {
    const add = await api.post('/v1/memories/add', {
      external_user_id: user,
      messages: [{ role: 'user', content }],
      source: { service, event_id: eventId, observed_at: observedAt },
    });
    expect(add.status).toBe(200);
    if (add.body.job_id || !questions) expect((await api.waitForJob(add.body.job_id)).status).toBe('completed');
  }
}

describe.each(servers())('a relative date in the question on $name', (server) => {
  it('counts "3 weeks ago" from reference_time, and refuses a reference_time that is not a date-time', async () => {
    const api = await tenantApi(server);
    await api.post('/v1/tenant/service-writers', { service_key: 'kitchen', display_name: 'Kitchen', authority_rules: { default_priority: 50 } });
    await addSaid(api, 'when1', 'kitchen', [
      ['k1', '2026-03-01T09:00:00Z', 'I bought a new blender for the kitchen, it crushes ice easily.'],
      ['k2', '2026-03-20T09:00:00Z', 'I bought a new kettle for the kitchen, it boils water quickly.'],
    ]);
    const query = 'What did I buy for the kitchen 3 weeks ago?';
    const first = async (extra: Record<string, unknown>) => {
      const r = await api.post('/v1/memories/retrieve', { external_user_id: 'when1', query, ...extra });
      expect(r.status).toBe(200);
      return r.body.data[0].content as string;
    };
    // asked on 22 March, three weeks back is the blender's day
    expect(await first({ reference_time: '2026-03-22T10:00:00+00:00' })).toMatch(/blender/);
    // asked on 10 April, it is the kettle's
    expect(await first({ reference_time: '2026-04-10T10:00:00Z' })).toMatch(/kettle/);
    const bad = await api.post('/v1/memories/retrieve', { external_user_id: 'when1', query, reference_time: 'last week' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].path).toBe('reference_time');
  });

  it('finds what happened on the named days, whatever its words', async () => {
    const api = await tenantApi(server);
    await api.post('/v1/tenant/service-writers', { service_key: 'garden', display_name: 'Garden', authority_rules: { default_priority: 50 } });
    await addSaid(api, 'when2', 'garden', [
      ['g1', '2026-03-01T09:00:00Z', 'I just planted twelve tomato seedlings today, fingers crossed for the frost.'],
      ['g2', '2026-03-01T15:00:00Z', 'Which trains run to the coast on Sundays?'],
    ], true);
    const ask = async (query: string) => {
      const r = await api.post('/v1/memories/retrieve', { external_user_id: 'when2', query, reference_time: '2026-03-15T10:00:00Z' });
      expect(r.status).toBe(200);
      return r.body.data.map((m: any) => m.content as string);
    };
    // "two weeks ago" is 1 March: the seedlings were planted that day, and the question shares no word with them
    const found = await ask('What did I do in the garden two weeks ago?');
    expect(found[0]).toMatch(/tomato seedlings/);
    // the question about trains was only said that day: it tells of nothing that happened
    expect(found.join('\n')).not.toMatch(/trains/);
  });
});
