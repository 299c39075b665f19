/**
 * The customer profile of the Customer Support schema (support.ts): pure rules over one user's memory texts and
 * source events — plan, products, environment, channels, issues and their resolution, escalations, sentiment.
 */
import { analyze } from '../text/terms';
import type { CustomerProfile, CustomerSummary, ProfileEntry, SupportEscalation, SupportIssue } from '../schemas/domains';
import type { ProfileMemory } from './edtech';
import { sentimentLabel } from './sentiment';
import { CLOSED_TICKET_STATUSES, ESCALATION, PROBLEM, RESOLVED } from '../extraction/support-patterns';

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
export function topicOf(text: string): Set<string> {
  const stripped = text.replace(PROBLEM_ALL, ' ').replace(RESOLVED_ALL, ' ');
  return new Set(analyze(stripped).filter((t) => !GENERIC.has(t) && t.length > 2));
}

// ── the profile ──────────────────────────────────────────────────────────────────────────────────────────────

export const time = (v: Date | string | number) => new Date(v).getTime();
const iso = (v: Date | string) => new Date(v).toISOString();
export const scopeString = (scope: Record<string, unknown> | null, key: string): string | null => {
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

export const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
export const round3 = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);

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
