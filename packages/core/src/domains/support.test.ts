import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiError } from '../errors';
import { extractMemories } from '../extraction/builtin';
import type { ConversationMessage } from '../messages';
import { renderSection } from '../retrieval/domain-section';
import { listCustomersQuery, supportStatsQuery } from '../schemas/domains';
import type { ProfileMemory } from './edtech';
import { conversationSentiment, sentimentLabel } from './sentiment';
import {
  type SupportEvent,
  buildCustomerProfile,
  computeSupportStats,
  customerSection,
  customerSummary,
  normaliseChannel,
  pageCustomers,
  sentimentTrend,
  statsWindow,
} from './support';

interface Session {
  event_id: string;
  observed_at: string;
  scope: Record<string, unknown>;
  messages: ConversationMessage[];
}
const FIXTURE = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../../../tests/fixtures/support-conversations.json'), 'utf8')) as {
  customers: Array<{ external_user_id: string; sessions: Session[] }>;
};

const NOW = new Date('2025-03-20T00:00:00Z');

/** What the extraction job stores for the fixture: memories (built-in extractor, Customer Support) and events. */
function ingest(sessions: Session[], domain = 'customer_support') {
  const memories: ProfileMemory[] = [];
  const events: SupportEvent[] = [];
  for (const s of sessions) {
    const r = extractMemories({ messages: s.messages, observedAt: new Date(s.observed_at), domain });
    events.push({ id: s.event_id, observed_at: s.observed_at, scope: s.scope, sentiment: conversationSentiment(s.messages) });
    r.memories.forEach((m, i) => memories.push({ id: `${s.event_id}/m${i}`, content: m.content, source_event_id: s.event_id, created_at: s.observed_at }));
  }
  return { memories, events };
}

const customer = (id: string) => FIXTURE.customers.find((c) => c.external_user_id === id)!;
const profileOf = (id: string) => {
  const { memories, events } = ingest(customer(id).sessions);
  return buildCustomerProfile(id, memories, events, NOW);
};

describe('built-in extraction under Customer Support', () => {
  const messages: ConversationMessage[] = [{ role: 'user', content: 'The CSV export keeps failing with a timeout error. The app crashes when I upload a photo.' }];
  it('keeps problem reports that do not speak about the user', () => {
    const kept = extractMemories({ messages, observedAt: NOW, domain: 'customer_support' }).memories;
    expect(kept.map((m) => [m.content, m.category])).toEqual([
      ['The user said that the CSV export keeps failing with a timeout error.', 'event'],
      ['The user said that the app crashes when the user uploads a photo.', 'event'],
    ]);
  });
  it('leaves them out under the other schemas (the general engine keeps facts about the user)', () => {
    for (const domain of [undefined, 'general', 'edtech']) {
      expect(extractMemories({ messages, observedAt: NOW, domain }).memories).toEqual([]);
    }
  });
  it('still skips chatter that reports nothing', () => {
    const r = extractMemories({ messages: [{ role: 'user', content: 'The weather is lovely today.' }], observedAt: NOW, domain: 'customer_support' });
    expect(r.memories).toEqual([]);
  });
});

describe('conversation sentiment', () => {
  it('scores only the user’s messages, in [-1, 1], with support words AFINN lacks', () => {
    expect(conversationSentiment([{ role: 'user', content: 'This is great, thanks for the help!' }])).toBeGreaterThan(0.05);
    expect(conversationSentiment([{ role: 'user', content: 'The app crashes all the time and it is broken.' }])).toBeLessThan(-0.05);
    expect(conversationSentiment([{ role: 'user', content: 'This is not good.' }])).toBeLessThan(0);
    expect(conversationSentiment([{ role: 'assistant', content: 'Terrible, awful, horrible.' }])).toBeNull();
    expect(conversationSentiment([{ role: 'user', content: 'My order number is 1234.' }])).toBe(0);
  });
  it('labels scores with a neutral band of ±0.05', () => {
    expect([0.05, 0.049, 0, -0.049, -0.05, null].map(sentimentLabel)).toEqual(['positive', 'neutral', 'neutral', 'neutral', 'negative', null]);
  });
  it('finds the trend: the latest (up to 3) against the ones before (up to 3)', () => {
    expect(sentimentTrend([])).toBe('insufficient_data');
    expect(sentimentTrend([0.4])).toBe('insufficient_data');
    expect(sentimentTrend([-0.3, 0.2])).toBe('improving');
    expect(sentimentTrend([0.2, -0.3])).toBe('declining');
    expect(sentimentTrend([0.1, 0.15])).toBe('stable');
    // [0.5, 0.5] before, [-0.2, -0.2] now (the 5th point from the end is outside both windows)
    expect(sentimentTrend([-1, 0.5, 0.5, -0.2, -0.2])).toBe('declining');
  });
});

describe('the customer profile (fixture: support-conversations.json)', () => {
  it('reads plan, products, environment, issues, sentiment, channel and escalations, each with its sources', () => {
    const p = profileOf('cust_dana');
    expect(p.plan).toEqual([{ value: 'Business plan', memory_ids: ['zd-1001-a/m0'], source_event_ids: ['zd-1001-a'] }]);
    expect(p.products).toEqual([{ value: 'Acme Invoicing', memory_ids: ['zd-1001-a/m1'], source_event_ids: ['zd-1001-a'] }]);
    expect(p.environment.map((e) => e.value)).toEqual(['Windows 11', 'Chrome']);
    expect(p.open_issues).toEqual([
      {
        value: "The user was charged twice for the user's March invoice",
        status: 'open',
        ticket: '1002',
        opened_at: '2025-03-10T11:00:00.000Z',
        memory_ids: ['zd-1002-a/m0'],
        source_event_ids: ['zd-1002-a'],
        resolution: null,
      },
    ]);
    expect(p.past_issues).toEqual([
      {
        value: 'The CSV export keeps failing with a timeout error',
        status: 'resolved',
        ticket: '1001',
        opened_at: '2025-03-03T09:00:00.000Z',
        memory_ids: ['zd-1001-a/m2'],
        source_event_ids: ['zd-1001-a'],
        resolution: { resolved_at: '2025-03-05T14:00:00.000Z', by: 'ticket_status', memory_ids: [], source_event_ids: ['zd-1001-b'] },
      },
    ]);
    expect(p.sentiment).toMatchObject({ label: 'negative', trend: 'declining' });
    expect(p.sentiment.points.map((x) => x.source_event_id)).toEqual(['zd-1001-a', 'zd-1001-b', 'zd-1002-a']);
    expect(p.sentiment.points.map((x) => sentimentLabel(x.score))).toEqual(['negative', 'positive', 'negative']);
    expect(p.preferred_channel).toEqual({ value: 'email', basis: 'stated', memory_ids: ['zd-1001-b/m1'], source_event_ids: ['zd-1001-b'] });
    expect(p.channels).toEqual([
      { channel: 'phone', conversations: 1 },
      { channel: 'email', conversations: 1 },
      { channel: 'chat', conversations: 1 },
    ]);
    expect(p.escalations).toHaveLength(1);
    expect(p.escalations[0]).toMatchObject({
      value: 'The user asked to speak to a manager',
      observed_at: '2025-03-10T11:00:00.000Z',
      ticket: '1002',
      source_event_ids: ['zd-1002-a'],
    });
    expect(p).toMatchObject({ conversation_count: 3, first_contact_at: '2025-03-03T09:00:00.000Z', last_contact_at: '2025-03-10T11:00:00.000Z' });
  });

  it('takes the newest plan as the current one and the most used channel when none is stated', () => {
    const p = profileOf('cust_omar');
    expect(p.plan.map((e) => e.value)).toEqual(['Pro plan', 'Starter plan']);
    expect(p.products.map((e) => e.value)).toEqual(['Acme mobile app']);
    expect(p.environment.map((e) => e.value).sort()).toEqual(['iOS 18', 'iPhone 15']);
    expect(p.open_issues.map((i) => [i.value, i.ticket])).toEqual([['The app crashes when the user uploads a receipt photo', '2001']]);
    expect(p.sentiment).toMatchObject({ label: 'positive', trend: 'improving' });
    expect(p.preferred_channel).toMatchObject({ value: 'chat', basis: 'most_used', source_event_ids: ['zd-2001-a', 'zd-2001-b'] });
    expect(p.escalations).toEqual([]);
  });

  it('resolves an issue by a later report that names the same thing, and reopens nothing older', () => {
    const m = (id: string, content: string, at: string, eventId: string | null = null): ProfileMemory => ({ id, content, source_event_id: eventId, created_at: at });
    const p = buildCustomerProfile(
      'u',
      [
        m('a', 'The user said that the CSV export keeps failing.', '2025-01-01T00:00:00Z'),
        m('b', 'The user said that the mobile app crashes on start.', '2025-01-02T00:00:00Z'),
        m('c', 'The user said that the CSV export works now.', '2025-01-03T00:00:00Z'),
        m('d', 'The user said that the login page is broken.', '2025-01-05T00:00:00Z'),
        m('e', 'The user said that the login page was fixed.', '2025-01-04T00:00:00Z'),
      ],
      [],
      NOW,
    );
    expect(p.past_issues.map((i) => [i.value, i.resolution?.by, i.resolution?.memory_ids])).toEqual([
      ['The CSV export keeps failing', 'resolution_report', ['c']],
    ]);
    // the login fix is older than the report: still open
    expect(p.open_issues.map((i) => i.value)).toEqual(['The login page is broken', 'The mobile app crashes on start']);
  });

  it('reads plan, product, environment and escalation from the source scope', () => {
    const events: SupportEvent[] = [
      { id: 'e1', observed_at: '2025-02-01T00:00:00Z', scope: { plan: 'enterprise', product: 'Acme API', os: 'Ubuntu 24.04', app_version: '2.3.1', channel: 'E-mail' }, sentiment: 0 },
      { id: 'e2', observed_at: '2025-02-02T00:00:00Z', scope: { escalated: true, ticket: 77 }, sentiment: null },
    ];
    const p = buildCustomerProfile('u', [], events, NOW);
    expect(p.plan).toEqual([{ value: 'Enterprise plan', memory_ids: [], source_event_ids: ['e1'] }]);
    expect(p.products.map((e) => e.value)).toEqual(['Acme API']);
    expect(p.environment.map((e) => e.value)).toEqual(['Ubuntu 24.04', 'version 2.3.1']);
    expect(p.escalations).toEqual([
      { value: 'Ticket 77 was escalated', observed_at: '2025-02-02T00:00:00.000Z', ticket: '77', memory_ids: [], source_event_ids: ['e2'] },
    ]);
    expect(p.preferred_channel).toMatchObject({ value: 'email', basis: 'most_used' });
    expect(p.sentiment).toMatchObject({ latest: 0, label: 'neutral', trend: 'insufficient_data' });
  });

  it('normalises channel names', () => {
    expect(['E-mail', 'phone calls', 'Live chat', 'text messages', 'WhatsApp'].map(normaliseChannel)).toEqual(['email', 'phone', 'chat', 'sms', 'whatsapp']);
  });
});

describe('the customers list', () => {
  const summaries = [profileOf('cust_dana'), profileOf('cust_omar')].map(customerSummary);
  const q = (raw: Record<string, string>) => listCustomersQuery.parse(raw);
  const ids = (raw: Record<string, string>) => pageCustomers(summaries, q(raw)).customers.map((c) => c.external_user_id);

  it('sorts by last contact, open issues or most negative sentiment', () => {
    expect(ids({})).toEqual(['cust_omar', 'cust_dana']);
    expect(ids({ sort: 'sentiment' })).toEqual(['cust_dana', 'cust_omar']);
    expect(ids({ sort: 'open_issues' })).toEqual(['cust_dana', 'cust_omar']); // a tie: by id
  });

  it('filters on plan, open issues, sentiment, trend, escalations, channel and last contact', () => {
    expect(ids({ plan: 'pro' })).toEqual(['cust_omar']);
    expect(ids({ plan: 'Business plan' })).toEqual(['cust_dana']);
    expect(ids({ plan: 'starter' })).toEqual([]); // a former plan is not the current one
    expect(ids({ has_open_issues: 'true' })).toEqual(['cust_omar', 'cust_dana']);
    expect(ids({ has_open_issues: 'false' })).toEqual([]);
    expect(ids({ sentiment: 'negative' })).toEqual(['cust_dana']);
    expect(ids({ sentiment_trend: 'improving' })).toEqual(['cust_omar']);
    expect(ids({ escalated: 'true' })).toEqual(['cust_dana']);
    expect(ids({ escalated: 'false' })).toEqual(['cust_omar']);
    expect(ids({ channel: 'E-mail' })).toEqual(['cust_dana']);
    expect(ids({ contacted_after: '2025-03-11T00:00:00Z' })).toEqual(['cust_omar']);
  });

  it('pages with a cursor that only works for its sort', () => {
    for (const sort of ['last_contact', 'open_issues', 'sentiment']) {
      const first = pageCustomers(summaries, q({ sort, limit: '1' }));
      expect(first.customers).toHaveLength(1);
      expect(first.total).toBe(2);
      const second = pageCustomers(summaries, q({ sort, limit: '1', cursor: first.next_cursor! }));
      expect(second.customers).toHaveLength(1);
      expect(second.next_cursor).toBeNull();
      expect([first.customers[0].external_user_id, second.customers[0].external_user_id].sort()).toEqual(['cust_dana', 'cust_omar']);
    }
    const cursor = pageCustomers(summaries, q({ limit: '1' })).next_cursor!;
    const refusal = (raw: Record<string, string>) => {
      try {
        pageCustomers(summaries, q(raw));
      } catch (err) {
        return { status: (err as ApiError).status, errors: (err as ApiError).extra.errors };
      }
      return null;
    };
    const badCursor = { status: 422, errors: [{ path: 'cursor', message: 'is not a cursor returned by this endpoint for this sort' }] };
    expect(refusal({ sort: 'sentiment', cursor })).toEqual(badCursor);
    expect(refusal({ cursor: 'not-a-cursor' })).toEqual(badCursor);
  });
});

describe('support stats', () => {
  const sessions = FIXTURE.customers.flatMap((c) => c.sessions.map((s) => ({ ...s, customer: c.external_user_id })));
  const profiles = [profileOf('cust_dana'), profileOf('cust_omar')];
  const events = sessions.map((s) => ({
    at: new Date(s.observed_at).getTime(),
    sentiment: conversationSentiment(s.messages),
    channel: normaliseChannel(String(s.scope.channel)),
    customer: s.customer,
  }));
  const window = { from: new Date('2025-03-01T00:00:00Z'), to: new Date('2025-03-15T00:00:00Z') };

  it('counts the window and the window before, per day, with the state now', () => {
    const s = computeSupportStats(profiles, events, window);
    expect(s.window).toEqual({ from: '2025-03-01T00:00:00.000Z', to: '2025-03-15T00:00:00.000Z', days: 14, bucket: 'day' });
    expect(s.totals).toMatchObject({
      conversations: 5,
      customers_contacted: 2,
      issues_opened: 3,
      issues_resolved: 1,
      escalations: 1,
      negative_conversations: 3,
      median_resolution_hours: 53, // 3 March 09:00 → 5 March 14:00
    });
    expect(s.previous).toEqual({
      conversations: 0,
      customers_contacted: 0,
      issues_opened: 0,
      issues_resolved: 0,
      escalations: 0,
      negative_conversations: 0,
      average_sentiment: null,
      median_resolution_hours: null,
    });
    expect(s.current).toEqual({ customers: 2, open_issues: 2, customers_with_open_issues: 2, customers_negative: 1, customers_declining: 1 });
    expect(s.series).toHaveLength(14);
    expect(s.series.reduce((n, b) => n + b.conversations, 0)).toBe(5);
    expect(s.series.find((b) => b.start === '2025-03-05T00:00:00.000Z')).toMatchObject({ conversations: 1, issues_resolved: 1 });
    expect(s.series.find((b) => b.start === '2025-03-06T00:00:00.000Z')?.average_sentiment).toBeNull();
    expect(s.channels).toEqual([
      { channel: 'chat', conversations: 3 },
      { channel: 'email', conversations: 1 },
      { channel: 'phone', conversations: 1 },
    ]);
    expect(s.plans).toEqual([
      { plan: 'Business plan', customers: 1 },
      { plan: 'Pro plan', customers: 1 },
    ]);
    expect(s.top_issue_terms[0]).toBeDefined();
  });

  it('moves the counts to `previous` when the window moves on, and buckets long windows per week', () => {
    const later = computeSupportStats(profiles, events, { from: new Date('2025-03-15T00:00:00Z'), to: new Date('2025-03-29T00:00:00Z') });
    expect(later.totals.conversations).toBe(0);
    expect(later.previous.conversations).toBe(5);
    const year = computeSupportStats(profiles, events, { from: new Date('2024-03-15T00:00:00Z'), to: new Date('2025-03-15T00:00:00Z') });
    expect(year.window.bucket).toBe('week');
    expect(year.series.reduce((n, b) => n + b.conversations, 0)).toBe(5);
  });

  it('reads the window from `window` or `from`/`to`, and refuses bad ones', () => {
    const now = new Date('2025-03-15T00:00:00Z');
    expect(statsWindow(supportStatsQuery.parse({}), now).from.toISOString()).toBe('2025-02-13T00:00:00.000Z');
    expect(statsWindow(supportStatsQuery.parse({ window: '7d' }), now).from.toISOString()).toBe('2025-03-08T00:00:00.000Z');
    expect(statsWindow(supportStatsQuery.parse({ from: '2025-03-01T00:00:00Z' }), now).to).toBe(now);
    expect(() => statsWindow(supportStatsQuery.parse({ from: '2025-03-02T00:00:00Z', to: '2025-03-01T00:00:00Z' }), now)).toThrow();
    expect(() => statsWindow(supportStatsQuery.parse({ from: '2023-01-01T00:00:00Z', to: '2025-01-01T00:00:00Z' }), now)).toThrow();
    for (const bad of [{ window: '0d' }, { window: '367d' }, { window: '2w' }, { window: '7d', from: '2025-03-01T00:00:00Z' }, { to: '2025-03-01T00:00:00Z' }]) {
      expect(supportStatsQuery.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('the customer section in retrieve', () => {
  it('lists the plan, open issues, sentiment, escalations, channel, environment, products and resolved issues in that order', () => {
    const text = renderSection(customerSection(profileOf('cust_dana')), 'bullets', 99);
    expect(text.split('\n').map((l) => l.split(':')[0])).toEqual([
      'Customer profile',
      '- Plan',
      '- Open issues',
      '- Sentiment',
      '- Escalations',
      '- Preferred channel',
      '- Environment',
      '- Products',
      '- Resolved issues',
    ]);
    expect(text).toContain("- Open issues: The user was charged twice for the user's March invoice (ticket 1002), since 2025-03-10");
    expect(text).toContain('- Preferred channel: email (stated)');
    expect(JSON.parse(`{${renderSection(customerSection(profileOf('cust_omar')), 'json', 99)}}`).customer_profile.plan).toEqual(['Pro plan']);
  });
  it('leaves out what is not known', () => {
    expect(customerSection(buildCustomerProfile('u', [], [], NOW)).lines).toEqual([]);
  });
});
