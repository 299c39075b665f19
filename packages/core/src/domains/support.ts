/**
 * The Customer Support schema (docs/domain-schemas.md, "Customer Support"): a customer profile per end user,
 * the customers list and the support stats. Like the EdTech profile, everything is built at READ time from
 * the user's active memories and source events (their `observed_at`, `scope` and the `sentiment` the
 * extraction job stored), so it always agrees with them and switching schemas needs no backfill.
 *
 * What is read from where:
 *   plan, products, environment, preferred channel (stated) ← memory texts, plus the source scope's `plan`,
 *     `product`, `os`, `browser`, `device`, `app_version`
 *   issues ← memories that report a problem (extraction/support-patterns.ts), grouped by the scope's `ticket`; resolved by a
 *     later event of the same ticket with a closed `ticket_status`, or by a later resolution report that names
 *     the same thing ("The CSV export works now")
 *   escalations ← memories about managers, complaints, threats to cancel, and events whose scope has `escalated`
 *   sentiment and channels ← source events (`sentiment`, scope `channel`)
 */
import { type Db, rows, sql } from '@memory/db';
import { Errors } from '../errors';
import { type DomainSection, registerDomainSection } from '../retrieval/domain-section';
import type { CustomerProfile, SupportIssue } from '../schemas/domains';
import { findUser } from '../users';
import type { ProfileMemory } from './edtech';
import { type SupportEvent, buildCustomerProfile } from './support-profile';
import { loadSupportEvents, requireSupport } from './support-store';

export { type SupportEvent, buildCustomerProfile, customerSummary, normaliseChannel, sentimentTrend, TREND_DELTA, TREND_WINDOW } from './support-profile';
export { loadSupportEvents } from './support-store';
export { filterCustomers, listCustomers, pageCustomers } from './support-customers';
export { DAILY_BUCKETS_MAX_DAYS, computeSupportStats, getSupportStats, statsWindow } from './support-stats';

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

/** Customer Support reads the user's latest source events (sentiment, channel, ticket) beside the memories. */
const RETRIEVE_SUPPORT_EVENTS = 200;

registerDomainSection<SupportEvent[]>('customer_support', {
  load: (db, tenantId, userId) => loadSupportEvents(db, tenantId, userId, RETRIEVE_SUPPORT_EVENTS),
  build: (externalUserId, rows, now, events) => customerSection(buildCustomerProfile(externalUserId, rows, events ?? [], now)),
});
