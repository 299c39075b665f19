/** The Customer Support stats (GET /v1/tenant/support-stats, support.ts) over a window of the customers' events. */
import type { Db } from '@memory/db';
import { Errors } from '../errors';
import type { CustomerProfile, SupportStats, SupportStatsQuery } from '../schemas/domains';
import { sentimentLabel } from './sentiment';
import { mean, round3, time, topicOf } from './support-profile';
import { type StatEvent, allProfiles, requireSupport } from './support-store';

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
