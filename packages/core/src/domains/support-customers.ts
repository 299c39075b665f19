/** The Customer Support customers list (GET /v1/tenant/customers, support.ts): filters, sort and keyset pages. */
import type { Db } from '@memory/db';
import { decodeOpaque, encodeOpaque } from '../pagination';
import type { CustomerList, CustomerSummary, ListCustomersQuery } from '../schemas/domains';
import { customerSummary, normaliseChannel, time } from './support-profile';
import { allProfiles, requireSupport } from './support-store';

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

const decodeCustomerCursor = (raw: string, sort: string): CustomerCursor =>
  decodeOpaque<CustomerCursor>(
    raw,
    (c) => c.s === sort && typeof c.u === 'string' && (c.k === null || typeof c.k === 'number'),
    'is not a cursor returned by this endpoint for this sort',
  );

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
      more && last ? encodeOpaque({ s: q.sort, k: finiteOrNull(last.k), u: last.c.external_user_id } satisfies CustomerCursor) : null,
    total: filtered.length,
  };
}

/** GET /v1/tenant/customers. */
export async function listCustomers(db: Db, tenantId: string, q: ListCustomersQuery, now = new Date()): Promise<CustomerList> {
  await requireSupport(db, tenantId);
  return pageCustomers((await allProfiles(db, tenantId, now)).profiles.map(customerSummary), q);
}
