/**
 * The Customer Support schema (docs/domain-schemas.md, "Customer Support"): a customer profile per end user,
 * the customers list and the support stats. Like the EdTech profile, everything is built at READ time from
 * the user's active memories and source events (their `observed_at`, `scope` and the `sentiment` the
 * extraction job stored), so it always agrees with them and switching schemas needs no backfill.
 *
 * What is read from where:
 *   plan, products, environment, preferred channel (stated) ← memory texts, plus the source scope's `plan`,
 *     `product`, `os`, `browser`, `device`, `app_version`
 *   issues ← memories that report a problem (support-patterns.ts), grouped by the scope's `ticket`; resolved by a
 *     later event of the same ticket with a closed `ticket_status`, or by a later resolution report that names
 *     the same thing ("The CSV export works now")
 *   escalations ← memories about managers, complaints, threats to cancel, and events whose scope has `escalated`
 *   sentiment and channels ← source events (`sentiment`, scope `channel`)
 */
import { type Db, rows, sql } from '@memory/db';
import { Errors } from '../errors';
import { analyze } from '../retrieval/text';
import type { DomainSection } from '../retrieval/domain-section';
import type {
  CustomerList,
  CustomerProfile,
  CustomerSummary,
  ListCustomersQuery,
  ProfileEntry,
  SupportEscalation,
  SupportIssue,
  SupportStats,
  SupportStatsQuery,
} from '../schemas/domains';
import { findUser } from '../users';
import type { ProfileMemory } from './edtech';
import { sentimentLabel } from './sentiment';
import { CLOSED_TICKET_STATUSES, ESCALATION, PROBLEM, RESOLVED } from './support-patterns';
import { tenantDomainSchema } from './settings';

/** A source event as the profile reads it. */
export interface SupportEvent {
  id: string;
  observed_at: Date | string;
  scope: Record<string, unknown> | null;
  sentiment: number | null;
}

// ── rules over memory texts ──────────────────────────────────────────────────────────────────────────────────

const PLAN =
  /\b(?:is on|is currently on|was on|has|have|is subscribed to|subscribed to|subscribes to|pays for|upgraded to|downgraded to|switched to|moved to|signed up for|bought|purchased|renewed) (?:the |a |an |our |their )?([\w+.-]+(?: [\w+.-]+)?) (plan|tier|subscription|edition|license|licence)\b/i;

const PRODUCT =
  /\b(?:uses|is using|used|bought|purchased|subscribes to|is a customer of|installed|has an? (?:account|subscription|license) (?:with|for|to)) (?:the |an? |our |their )?([A-Z][\w.+-]*(?: [\w.+-]+){0,3}?)(?= on | with | for | in | at | to | and | since |[.,;!?)]|$)/;

const ENVIRONMENT: Array<[RegExp, (m: RegExpExecArray) => string]> = [
  [/\bWindows(?: (?:11|10|8\.1|8|7|XP|Server(?: \d{4})?))?\b/g, (m) => m[0]],
  [/\bmac ?OS(?: \d+(?:\.\d+)*| (?:Sonoma|Sequoia|Ventura|Monterey|Big Sur|Tahoe))?\b/gi, (m) => m[0].replace(/^mac ?os/i, 'macOS')],
  [/\b(?:Ubuntu|Debian|Fedora|Linux|ChromeOS)(?: \d+(?:\.\d+)*)?\b/g, (m) => m[0]],
  [/\biOS(?: \d+(?:\.\d+)*)?\b/g, (m) => m[0]],
  [/\bAndroid(?: \d+(?:\.\d+)*)?\b/g, (m) => m[0]],
  [/\biPhone(?: \d+(?: Pro Max| Pro| Plus| mini)?| SE)?\b/g, (m) => m[0]],
  [/\biPad(?: Pro| Air| mini)?\b/g, (m) => m[0]],
  [/\b(?:Samsung )?Galaxy [A-Z]\w*\b|\bPixel \d+\w*\b/g, (m) => m[0]],
  [/\b(?:Chrome|Firefox|Safari|Edge|Brave|Opera)(?: \d+)?\b/g, (m) => m[0]],
  [/\b(?:app |client )?version (\d+(?:\.\d+)+)\b|\bv(\d+\.\d+(?:\.\d+)?)\b/gi, (m) => `version ${m[1] ?? m[2]}`],
  [/\b(?:self-hosted|on-prem(?:ise|ises)?)\b/gi, (m) => m[0].toLowerCase()],
];

/** An environment name as a whole value ("Windows 11"): not taken for a product. */
const WHOLE_ENVIRONMENT = ENVIRONMENT.map(([re]) => new RegExp(`^(?:${re.source})$`, re.flags.replace('g', '')));

const CHANNEL_WORDS = String.raw`e-?mail|phone(?: calls?)?|telephone|calls?|live chat|chat|sms|text messages?|texts?|whatsapp|slack`;
const STATED_CHANNEL = new RegExp(
  String.raw`\b(?:prefers?|would rather|likes? to be (?:contacted|reached)|wants? to be (?:contacted|reached)|is best reached)\b(?:(?!\bnot\b)[^.])*?\b(${CHANNEL_WORDS})\b`,
  'i',
);

/** `E-mail` → `email`, `phone calls` → `phone`, `live chat` → `chat`, `text messages` → `sms`; anything else lower-cased. */
export function normaliseChannel(raw: string): string {
  const c = raw.trim().toLowerCase();
  if (/^e-?mail$/.test(c)) return 'email';
  if (/^(?:phone(?: calls?)?|telephone|calls?|voice)$/.test(c)) return 'phone';
  if (/^(?:live )?chat$/.test(c)) return 'chat';
  if (/^(?:sms|texts?|text messages?)$/.test(c)) return 'sms';
  return c;
}

/** "The user said that the CSV export keeps failing." → "The CSV export keeps failing" (for issue values). */
function issueText(content: string): string {
  const s = content
    .replace(/\s+/g, ' ')
    .replace(/^the user said that /i, '')
    .replace(/[.!?;:,\s]+$/, '')
    .trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Words that say nothing about what the problem is about. */
const GENERIC = new Set(['said', 'keep', 'still', 'again', 'anymor', 'issu', 'problem', 'now', 'today', 'alway', 'sometim', 'get', 'got']);

const PROBLEM_ALL = new RegExp(PROBLEM.source, 'gi');
const RESOLVED_ALL = new RegExp(RESOLVED.source, 'gi');

/** What a problem or resolution is about: its stems without the problem/resolution wording. */
function topicOf(text: string): Set<string> {
  const stripped = text.replace(PROBLEM_ALL, ' ').replace(RESOLVED_ALL, ' ');
  return new Set(analyze(stripped).filter((t) => !GENERIC.has(t) && t.length > 2));
}

// ── the profile ──────────────────────────────────────────────────────────────────────────────────────────────

const time = (v: Date | string | number) => new Date(v).getTime();
const iso = (v: Date | string) => new Date(v).toISOString();
const scopeString = (scope: Record<string, unknown> | null, key: string): string | null => {
  const v = scope?.[key];
  if (typeof v === 'string' && v.trim()) return v.trim().slice(0, 120);
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
};
const clean = (s: string) => s.replace(/\s+/g, ' ').replace(/[.!?;:,\s]+$/, '').trim();

/** Entries of one field, newest first, equal values (case-insensitive) merged with all their sources. */
class Entries {
  private readonly byKey = new Map<string, ProfileEntry & { at: number }>();
  add(value: string, at: number, memoryId: string | null, eventId: string | null) {
    const v = clean(value);
    if (!v || v.length > 120) return;
    const key = v.toLowerCase();
    let e = this.byKey.get(key);
    if (!e) this.byKey.set(key, (e = { value: v, memory_ids: [], source_event_ids: [], at }));
    e.at = Math.max(e.at, at);
    if (memoryId && !e.memory_ids.includes(memoryId)) e.memory_ids.push(memoryId);
    if (eventId && !e.source_event_ids.includes(eventId)) e.source_event_ids.push(eventId);
  }
  list(): ProfileEntry[] {
    return [...this.byKey.values()].sort((a, b) => b.at - a.at).map(({ at: _at, ...e }) => e);
  }
}

const planValue = (name: string, kind: string) => `${name.charAt(0).toUpperCase()}${name.slice(1)} ${kind.toLowerCase()}`;
const planFromScope = (raw: string) => (/\b(?:plan|tier|subscription|edition|licen[cs]e)$/i.test(raw) ? raw : `${raw.charAt(0).toUpperCase()}${raw.slice(1)} plan`);

/** Sentiment trend: the latest TREND_WINDOW scored conversations against the TREND_WINDOW before them. */
export const TREND_WINDOW = 3;
export const TREND_DELTA = 0.1;
const SENTIMENT_POINTS = 20;

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const round3 = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);

export function sentimentTrend(scores: readonly number[]): CustomerProfile['sentiment']['trend'] {
  if (scores.length < 2) return 'insufficient_data';
  const recentN = Math.min(TREND_WINDOW, Math.floor(scores.length / 2));
  const recent = scores.slice(-recentN);
  const before = scores.slice(0, -recentN).slice(-TREND_WINDOW);
  const delta = (mean(recent) ?? 0) - (mean(before) ?? 0);
  if (delta >= TREND_DELTA) return 'improving';
  if (delta <= -TREND_DELTA) return 'declining';
  return 'stable';
}

type MemoryAt = ProfileMemory & { at: number; event: SupportEvent | null; ticket: string | null };

/** The customer profile of one user (pure; the endpoints, the console and retrieve all use it). */
export function buildCustomerProfile(
  externalUserId: string,
  memories: readonly ProfileMemory[],
  events: readonly SupportEvent[],
  now: Date = new Date(),
): CustomerProfile {
  const eventsById = new Map(events.map((e) => [e.id, e]));
  const dated: MemoryAt[] = memories
    .map((m) => {
      const event = (m.source_event_id && eventsById.get(m.source_event_id)) || null;
      return { ...m, event, at: time(event?.observed_at ?? m.created_at), ticket: scopeString(event?.scope ?? null, 'ticket') };
    })
    .sort((a, b) => a.at - b.at || a.id.localeCompare(b.id));
  const eventsByTime = [...events].sort((a, b) => time(a.observed_at) - time(b.observed_at) || a.id.localeCompare(b.id));

  const plan = new Entries();
  const products = new Entries();
  const environment = new Entries();
  for (const e of eventsByTime) {
    const at = time(e.observed_at);
    const p = scopeString(e.scope, 'plan');
    if (p) plan.add(planFromScope(p), at, null, e.id);
    const product = scopeString(e.scope, 'product');
    if (product) products.add(product, at, null, e.id);
    for (const key of ['os', 'browser', 'device', 'app_version']) {
      const v = scopeString(e.scope, key);
      if (v) environment.add(key === 'app_version' && /^v?\d/.test(v) ? `version ${v.replace(/^v/, '')}` : v, at, null, e.id);
    }
  }

  const problems: MemoryAt[] = [];
  const resolutions: MemoryAt[] = [];
  const escalationsByKey = new Map<string, SupportEscalation & { at: number }>();
  const addEscalation = (key: string, at: number, ticket: string | null, value: string | null, memoryId: string | null, eventId: string | null) => {
    let e = escalationsByKey.get(key);
    if (!e) escalationsByKey.set(key, (e = { value: value ?? '', observed_at: new Date(at).toISOString(), ticket, memory_ids: [], source_event_ids: [], at }));
    if (value && !e.value) e.value = value;
    if (memoryId && !e.memory_ids.includes(memoryId)) e.memory_ids.push(memoryId);
    if (eventId && !e.source_event_ids.includes(eventId)) e.source_event_ids.push(eventId);
  };
  let stated: { value: string; memory_ids: string[]; source_event_ids: string[] } | null = null;

  for (const m of dated) {
    const text = m.content.replace(/\s+/g, ' ');
    const eventId = m.source_event_id;
    const planMatch = PLAN.exec(text);
    if (planMatch) plan.add(planValue(planMatch[1], planMatch[2]), m.at, m.id, eventId);
    const productMatch = PRODUCT.exec(text);
    if (productMatch && !WHOLE_ENVIRONMENT.some((re) => re.test(productMatch[1]))) {
      if (!/\b(?:plan|tier|subscription)\b/i.test(productMatch[1])) products.add(productMatch[1], m.at, m.id, eventId);
    }
    for (const [re, value] of ENVIRONMENT) {
      for (const match of text.matchAll(re)) environment.add(value(match as RegExpExecArray), m.at, m.id, eventId);
    }
    const channel = STATED_CHANNEL.exec(text);
    if (channel) stated = { value: normaliseChannel(channel[1]), memory_ids: [m.id], source_event_ids: eventId ? [eventId] : [] };
    if (RESOLVED.test(text)) resolutions.push(m);
    else if (PROBLEM.test(text)) problems.push(m);
    if (ESCALATION.test(text)) addEscalation(eventId ?? `memory:${m.id}`, m.at, m.ticket, issueText(text), m.id, eventId);
  }
  for (const e of eventsByTime) {
    const flag = e.scope?.escalated ?? e.scope?.escalation;
    if (flag === true || flag === 'true' || (typeof flag === 'string' && flag.trim() && flag !== 'false')) {
      const ticket = scopeString(e.scope, 'ticket');
      addEscalation(e.id, time(e.observed_at), ticket, null, null, e.id);
    }
  }

  const issues = buildIssues(problems, resolutions, eventsByTime);
  const escalations = [...escalationsByKey.values()]
    .map(({ at, ...e }) => ({ ...e, value: e.value || (e.ticket ? `Ticket ${e.ticket} was escalated` : 'Escalated'), at }))
    .sort((a, b) => b.at - a.at)
    .map(({ at: _at, ...e }) => e);

  const scored = eventsByTime.filter((e) => typeof e.sentiment === 'number');
  const scores = scored.map((e) => e.sentiment as number);
  const latest = scores.length ? scores[scores.length - 1] : null;

  const channelCounts = new Map<string, { conversations: number; last: number; ids: string[] }>();
  for (const e of eventsByTime) {
    const raw = scopeString(e.scope, 'channel');
    if (!raw) continue;
    const c = normaliseChannel(raw);
    const entry = channelCounts.get(c) ?? { conversations: 0, last: 0, ids: [] };
    entry.conversations++;
    entry.last = time(e.observed_at);
    entry.ids.push(e.id);
    channelCounts.set(c, entry);
  }
  const channels = [...channelCounts.entries()].sort((a, b) => b[1].conversations - a[1].conversations || b[1].last - a[1].last);
  const preferred = stated
    ? { ...(stated as { value: string; memory_ids: string[]; source_event_ids: string[] }), basis: 'stated' as const }
    : channels.length
      ? { value: channels[0][0], basis: 'most_used' as const, memory_ids: [], source_event_ids: channels[0][1].ids.slice(-SENTIMENT_POINTS) }
      : null;

  return {
    external_user_id: externalUserId,
    plan: plan.list(),
    products: products.list(),
    environment: environment.list(),
    open_issues: issues.filter((i) => i.status === 'open').sort((a, b) => time(b.opened_at) - time(a.opened_at)),
    past_issues: issues
      .filter((i) => i.status === 'resolved')
      .sort((a, b) => time(b.resolution?.resolved_at ?? 0) - time(a.resolution?.resolved_at ?? 0)),
    sentiment: {
      latest,
      label: sentimentLabel(latest),
      average: round3(mean(scores)),
      trend: sentimentTrend(scores),
      points: scored.slice(-SENTIMENT_POINTS).map((e) => ({ source_event_id: e.id, observed_at: iso(e.observed_at), score: e.sentiment as number })),
    },
    preferred_channel: preferred,
    channels: channels.map(([channel, v]) => ({ channel, conversations: v.conversations })),
    escalations,
    conversation_count: events.length,
    first_contact_at: eventsByTime.length ? iso(eventsByTime[0].observed_at) : null,
    last_contact_at: eventsByTime.length ? iso(eventsByTime[eventsByTime.length - 1].observed_at) : null,
    memory_count: memories.length,
    generated_at: now.toISOString(),
  };
}

/**
 * Problem memories grouped into issues (one per ticket; without a ticket, one per distinct text), each resolved
 * by the latest `ticket_status` of its ticket when that is closed and not older than the issue's last report, or
 * else by a later resolution report about the same thing (same ticket, or a shared topic word).
 */
function buildIssues(problems: MemoryAt[], resolutions: MemoryAt[], eventsByTime: readonly SupportEvent[]): SupportIssue[] {
  const groups = new Map<string, MemoryAt[]>();
  for (const p of problems) {
    const key = p.ticket ? `ticket:${p.ticket}` : `text:${issueText(p.content).toLowerCase()}`;
    const group = groups.get(key);
    if (group) group.push(p);
    else groups.set(key, [p]);
  }
  const lastStatus = new Map<string, SupportEvent>();
  for (const e of eventsByTime) {
    const ticket = scopeString(e.scope, 'ticket');
    if (ticket && scopeString(e.scope, 'ticket_status')) lastStatus.set(ticket, e);
  }
  const issues: SupportIssue[] = [];
  for (const reports of groups.values()) {
    const first = reports[0];
    const lastReport = reports[reports.length - 1].at;
    const ticket = first.ticket;
    let resolution: SupportIssue['resolution'] = null;
    const statusEvent = ticket ? lastStatus.get(ticket) : undefined;
    if (
      statusEvent &&
      CLOSED_TICKET_STATUSES.has((scopeString(statusEvent.scope, 'ticket_status') ?? '').toLowerCase()) &&
      time(statusEvent.observed_at) >= lastReport
    ) {
      resolution = { resolved_at: iso(statusEvent.observed_at), by: 'ticket_status', memory_ids: [], source_event_ids: [statusEvent.id] };
    }
    if (!resolution) {
      const topic = new Set(reports.flatMap((r) => [...topicOf(r.content)]));
      const report = resolutions.find(
        (r) => r.at >= lastReport && ((ticket !== null && r.ticket === ticket) || [...topicOf(r.content)].some((t) => topic.has(t))),
      );
      if (report) {
        resolution = {
          resolved_at: new Date(report.at).toISOString(),
          by: 'resolution_report',
          memory_ids: [report.id],
          source_event_ids: report.source_event_id ? [report.source_event_id] : [],
        };
      }
    }
    issues.push({
      value: issueText(first.content),
      status: resolution ? 'resolved' : 'open',
      ticket,
      opened_at: new Date(first.at).toISOString(),
      memory_ids: reports.map((r) => r.id),
      source_event_ids: [...new Set(reports.flatMap((r) => (r.source_event_id ? [r.source_event_id] : [])))],
      resolution,
    });
  }
  return issues;
}

export function customerSummary(p: CustomerProfile): CustomerSummary {
  return {
    external_user_id: p.external_user_id,
    plan: p.plan[0]?.value ?? null,
    products: p.products.map((e) => e.value),
    open_issues: p.open_issues.length,
    past_issues: p.past_issues.length,
    sentiment: p.sentiment.latest,
    sentiment_label: p.sentiment.label,
    sentiment_trend: p.sentiment.trend,
    preferred_channel: p.preferred_channel?.value ?? null,
    escalations: p.escalations.length,
    conversation_count: p.conversation_count,
    last_contact_at: p.last_contact_at,
  };
}

// ── loading ──────────────────────────────────────────────────────────────────────────────────────────────────

const supportNotEnabled = (schema: string) =>
  Errors.conflict(
    `The Customer Support schema is not enabled for this tenant (its domain schema is \`${schema}\`). ` +
      'Enable it with PATCH /v1/tenant/domain-schema {"domain_schema":"customer_support"}.',
  );

async function requireSupport(db: Db, tenantId: string) {
  const schema = await tenantDomainSchema(db, tenantId);
  if (schema !== 'customer_support') throw supportNotEnabled(schema);
}

/** One user's source events, newest `limit` (retrieve reads the latest 200; the profile endpoint all). */
export async function loadSupportEvents(db: Db, tenantId: string, userId: string, limit?: number): Promise<SupportEvent[]> {
  return rows<SupportEvent>(
    db,
    sql`SELECT id, observed_at, scope, sentiment FROM source_events
        WHERE tenant_id = ${tenantId} AND user_id = ${userId}
        ORDER BY observed_at DESC ${limit ? sql`LIMIT ${limit}` : sql``}`,
  );
}

type TenantRow<T> = T & { user_id: string };

/**
 * Every customer's profile: users with at least one source event, built from two reads of the tenant's active
 * memories and source events (docs/domain-schemas.md, "Cost").
 */
async function allProfiles(db: Db, tenantId: string, now: Date): Promise<{ profiles: CustomerProfile[]; events: StatEvent[] }> {
  const [users, memoryRows, eventRows] = await Promise.all([
    rows<{ id: string; external_user_id: string }>(db, sql`SELECT id, external_user_id FROM end_users WHERE tenant_id = ${tenantId}`),
    rows<TenantRow<ProfileMemory>>(
      db,
      sql`SELECT id, user_id, content, source_event_id, created_at FROM memories WHERE tenant_id = ${tenantId} AND status = 'active'`,
    ),
    rows<TenantRow<SupportEvent>>(db, sql`SELECT id, user_id, observed_at, scope, sentiment FROM source_events WHERE tenant_id = ${tenantId}`),
  ]);
  const group = <T extends { user_id: string }>(list: T[]) => {
    const by = new Map<string, T[]>();
    for (const r of list) {
      const mine = by.get(r.user_id);
      if (mine) mine.push(r);
      else by.set(r.user_id, [r]);
    }
    return by;
  };
  const memoriesBy = group(memoryRows);
  const eventsBy = group(eventRows);
  const customers = users.filter((u) => eventsBy.has(u.id));
  return {
    profiles: customers.map((u) => buildCustomerProfile(u.external_user_id, memoriesBy.get(u.id) ?? [], eventsBy.get(u.id) ?? [], now)),
    events: customers.flatMap((u) =>
      (eventsBy.get(u.id) ?? []).map((e) => {
        const channel = scopeString(e.scope, 'channel');
        return { at: time(e.observed_at), sentiment: e.sentiment, channel: channel ? normaliseChannel(channel) : null, customer: u.external_user_id };
      }),
    ),
  };
}

/** GET /v1/tenant/customers/{external_user_id}: 409 unless Customer Support is on; 404 for an unknown user. */
export async function getCustomerProfile(db: Db, tenantId: string, externalUserId: string, now = new Date()): Promise<CustomerProfile> {
  await requireSupport(db, tenantId);
  const user = await findUser(db, tenantId, externalUserId);
  if (!user) throw Errors.notFound('The customer');
  const [memories, events] = await Promise.all([
    rows<ProfileMemory>(
      db,
      sql`SELECT id, content, source_event_id, created_at FROM memories WHERE tenant_id = ${tenantId} AND user_id = ${user.id} AND status = 'active'`,
    ),
    loadSupportEvents(db, tenantId, user.id),
  ]);
  return buildCustomerProfile(externalUserId, memories, events, now);
}

const planKey = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .replace(/\s+(?:plan|tier|subscription|edition|licen[cs]e)$/, '');

/** The sort key of a summary (ascending order means the list order) and the cursor that points after it. */
function sortKey(sort: ListCustomersQuery['sort'], c: CustomerSummary): number {
  switch (sort) {
    case 'open_issues':
      return -c.open_issues;
    case 'sentiment':
      return c.sentiment ?? Number.POSITIVE_INFINITY;
    default:
      return -(c.last_contact_at ? time(c.last_contact_at) : 0);
  }
}

interface CustomerCursor {
  s: string;
  k: number | null;
  u: string;
}

function decodeCustomerCursor(raw: string, sort: string): CustomerCursor {
  try {
    const c = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as CustomerCursor;
    if (c.s !== sort || typeof c.u !== 'string' || !(c.k === null || typeof c.k === 'number')) throw new Error();
    return c;
  } catch {
    throw Errors.validation([{ path: 'cursor', message: 'is not a cursor returned by this endpoint for this sort' }]);
  }
}

const finiteOrNull = (k: number) => (Number.isFinite(k) ? k : null);
const keyOf = (k: number | null) => (k === null ? Number.POSITIVE_INFINITY : k);

export function filterCustomers(list: readonly CustomerSummary[], q: ListCustomersQuery): CustomerSummary[] {
  const contactedAfter = q.contacted_after ? time(q.contacted_after) : null;
  return list.filter(
    (c) =>
      (q.plan === undefined || (c.plan !== null && planKey(c.plan) === planKey(q.plan))) &&
      (q.has_open_issues === undefined || c.open_issues > 0 === q.has_open_issues) &&
      (q.sentiment === undefined || c.sentiment_label === q.sentiment) &&
      (q.sentiment_trend === undefined || c.sentiment_trend === q.sentiment_trend) &&
      (q.escalated === undefined || c.escalations > 0 === q.escalated) &&
      (q.channel === undefined || c.preferred_channel === normaliseChannel(q.channel)) &&
      (contactedAfter === null || (c.last_contact_at !== null && time(c.last_contact_at) >= contactedAfter)),
  );
}

/** Filters, sorts (ties by external user id) and pages the customers (keyset cursor over the sort key). */
export function pageCustomers(all: readonly CustomerSummary[], q: ListCustomersQuery): CustomerList {
  const filtered = filterCustomers(all, q);
  const ordered = filtered
    .map((c) => ({ c, k: sortKey(q.sort, c) }))
    .sort((a, b) => a.k - b.k || (a.c.external_user_id < b.c.external_user_id ? -1 : a.c.external_user_id > b.c.external_user_id ? 1 : 0));
  let start = 0;
  if (q.cursor) {
    const cur = decodeCustomerCursor(q.cursor, q.sort);
    const ck = keyOf(cur.k);
    start = ordered.findIndex((x) => x.k > ck || (x.k === ck && x.c.external_user_id > cur.u));
    if (start < 0) start = ordered.length;
  }
  const page = ordered.slice(start, start + q.limit);
  const last = page[page.length - 1];
  const more = start + q.limit < ordered.length;
  return {
    customers: page.map((x) => x.c),
    next_cursor:
      more && last ? Buffer.from(JSON.stringify({ s: q.sort, k: finiteOrNull(last.k), u: last.c.external_user_id })).toString('base64url') : null,
    total: filtered.length,
  };
}

/** GET /v1/tenant/customers. */
export async function listCustomers(db: Db, tenantId: string, q: ListCustomersQuery, now = new Date()): Promise<CustomerList> {
  await requireSupport(db, tenantId);
  return pageCustomers((await allProfiles(db, tenantId, now)).profiles.map(customerSummary), q);
}

// ── stats ────────────────────────────────────────────────────────────────────────────────────────────────────

const DAY = 86_400_000;
/** Windows up to this many days are bucketed per day, longer ones per week. */
export const DAILY_BUCKETS_MAX_DAYS = 92;

export function statsWindow(q: SupportStatsQuery, now: Date): { from: Date; to: Date } {
  if (q.from) {
    const from = new Date(q.from);
    const to = q.to ? new Date(q.to) : now;
    if (!(to.getTime() > from.getTime())) throw Errors.validation([{ path: 'to', message: 'must be after `from`' }]);
    if (to.getTime() - from.getTime() > 366 * DAY) throw Errors.validation([{ path: 'from', message: 'the window is at most 366 days' }]);
    return { from, to };
  }
  const days = q.window ? Number(q.window.slice(0, -1)) : 30;
  return { from: new Date(now.getTime() - days * DAY), to: now };
}

interface StatEvent {
  at: number;
  sentiment: number | null;
  channel: string | null;
  customer: string;
}

/** Support stats over a window from the customers' profiles and their events (pure). */
export function computeSupportStats(
  profiles: readonly CustomerProfile[],
  events: readonly StatEvent[],
  window: { from: Date; to: Date },
): SupportStats {
  const from = window.from.getTime();
  const to = window.to.getTime();
  const span = to - from;
  const issues = profiles.flatMap((p) => [...p.open_issues, ...p.past_issues]);
  const escalations = profiles.flatMap((p) => p.escalations);

  const totals = (a: number, b: number) => {
    const inWin = (t: number) => t >= a && t < b;
    const evs = events.filter((e) => inWin(e.at));
    const scored = evs.flatMap((e) => (e.sentiment === null ? [] : [e.sentiment]));
    const resolved = issues.filter((i) => i.resolution && inWin(time(i.resolution.resolved_at)));
    const hours = resolved.map((i) => (time(i.resolution?.resolved_at ?? 0) - time(i.opened_at)) / 3_600_000).sort((x, y) => x - y);
    const median = hours.length ? (hours.length % 2 ? hours[(hours.length - 1) / 2] : (hours[hours.length / 2 - 1] + hours[hours.length / 2]) / 2) : null;
    return {
      conversations: evs.length,
      customers_contacted: new Set(evs.map((e) => e.customer)).size,
      issues_opened: issues.filter((i) => inWin(time(i.opened_at))).length,
      issues_resolved: resolved.length,
      escalations: escalations.filter((e) => inWin(time(e.observed_at))).length,
      negative_conversations: scored.filter((s) => sentimentLabel(s) === 'negative').length,
      average_sentiment: round3(mean(scored)),
      median_resolution_hours: median === null ? null : Math.round(median * 10) / 10,
    };
  };

  const days = span / DAY;
  const bucket: 'day' | 'week' = days <= DAILY_BUCKETS_MAX_DAYS ? 'day' : 'week';
  const step = bucket === 'day' ? DAY : 7 * DAY;
  const firstStart = Math.floor(from / DAY) * DAY;
  const series: SupportStats['series'] = [];
  for (let s = firstStart; s < to; s += step) {
    const a = Math.max(s, from);
    const b = Math.min(s + step, to);
    const t = totals(a, b);
    series.push({
      start: new Date(s).toISOString(),
      conversations: t.conversations,
      issues_opened: t.issues_opened,
      issues_resolved: t.issues_resolved,
      escalations: t.escalations,
      average_sentiment: t.average_sentiment,
    });
  }

  const channelCounts = new Map<string, number>();
  for (const e of events) if (e.at >= from && e.at < to && e.channel) channelCounts.set(e.channel, (channelCounts.get(e.channel) ?? 0) + 1);
  const planCounts = new Map<string, number>();
  for (const p of profiles) {
    const plan = p.plan[0]?.value ?? 'unknown';
    planCounts.set(plan, (planCounts.get(plan) ?? 0) + 1);
  }
  const termCounts = new Map<string, { term: string; issues: number }>();
  for (const i of issues.filter((x) => time(x.opened_at) >= from && time(x.opened_at) < to)) {
    const seen = new Set<string>();
    for (const word of i.value.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      const [stem] = topicOf(word);
      if (!stem || seen.has(stem)) continue;
      seen.add(stem);
      const entry = termCounts.get(stem) ?? { term: word, issues: 0 };
      entry.issues++;
      termCounts.set(stem, entry);
    }
  }
  const byCount = <T extends { n: number; k: string }>(a: T, b: T) => b.n - a.n || a.k.localeCompare(b.k);

  return {
    window: { from: window.from.toISOString(), to: window.to.toISOString(), days: Math.round(days * 1000) / 1000, bucket },
    totals: totals(from, to),
    previous: totals(from - span, from),
    current: {
      customers: profiles.length,
      open_issues: profiles.reduce((n, p) => n + p.open_issues.length, 0),
      customers_with_open_issues: profiles.filter((p) => p.open_issues.length > 0).length,
      customers_negative: profiles.filter((p) => p.sentiment.label === 'negative').length,
      customers_declining: profiles.filter((p) => p.sentiment.trend === 'declining').length,
    },
    series,
    channels: [...channelCounts.entries()]
      .map(([k, n]) => ({ k, n }))
      .sort(byCount)
      .map(({ k, n }) => ({ channel: k, conversations: n })),
    plans: [...planCounts.entries()]
      .map(([k, n]) => ({ k, n }))
      .sort(byCount)
      .map(({ k, n }) => ({ plan: k, customers: n })),
    top_issue_terms: [...termCounts.values()]
      .map((t) => ({ k: t.term, n: t.issues }))
      .sort(byCount)
      .slice(0, 5)
      .map(({ k, n }) => ({ term: k, issues: n })),
  };
}

/** GET /v1/tenant/support-stats. */
export async function getSupportStats(db: Db, tenantId: string, q: SupportStatsQuery, now = new Date()): Promise<SupportStats> {
  await requireSupport(db, tenantId);
  const window = statsWindow(q, now);
  const { profiles, events } = await allProfiles(db, tenantId, now);
  return computeSupportStats(profiles, events, window);
}

// ── retrieve ─────────────────────────────────────────────────────────────────────────────────────────────────

const SECTION_VALUES_MAX = 3;
const dateOf = (isoTime: string) => isoTime.slice(0, 10);

/**
 * Retrieve's "Customer profile" section (retrieval/domain-section.ts). Lines in priority order (the first are
 * kept longest when the budget is short): Plan, Open issues, Sentiment, Escalations, Preferred channel,
 * Environment, Products, Resolved issues.
 */
export function customerSection(p: CustomerProfile): DomainSection {
  const issue = (i: SupportIssue) => `${i.value}${i.ticket ? ` (ticket ${i.ticket})` : ''}, since ${dateOf(i.opened_at)}`;
  const candidates: Array<[string, string, string[]]> = [
    ['plan', 'Plan', p.plan.slice(0, 1).map((e) => e.value)],
    ['open_issues', 'Open issues', p.open_issues.slice(0, SECTION_VALUES_MAX).map(issue)],
    [
      'sentiment',
      'Sentiment',
      p.sentiment.label && p.sentiment.latest !== null
        ? [`${p.sentiment.label} (${p.sentiment.latest.toFixed(2)}) in the latest conversation, ${p.sentiment.trend.replace('_', ' ')}`]
        : [],
    ],
    ['escalations', 'Escalations', p.escalations.slice(0, 2).map((e) => `${dateOf(e.observed_at)}: ${e.value}`)],
    ['preferred_channel', 'Preferred channel', p.preferred_channel ? [`${p.preferred_channel.value} (${p.preferred_channel.basis.replace('_', ' ')})`] : []],
    ['environment', 'Environment', p.environment.slice(0, SECTION_VALUES_MAX).map((e) => e.value)],
    ['products', 'Products', p.products.slice(0, SECTION_VALUES_MAX).map((e) => e.value)],
    ['past_issues', 'Resolved issues', p.past_issues.slice(0, SECTION_VALUES_MAX).map((i) => `${i.value} (resolved ${dateOf(i.resolution?.resolved_at ?? i.opened_at)})`)],
  ];
  return {
    heading: 'Customer profile:',
    element: 'customer_profile',
    lines: candidates.flatMap(([key, label, values]) => (values.length ? [{ key, label, values }] : [])),
  };
}
