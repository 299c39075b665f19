'use client';
/**
 * Customer Support: the customers list with filters and paging, and one customer's profile with the memories and
 * source events behind every entry (docs/domain-schemas.md). Tenant-scoped by the console session.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { DomainGate, DomainSchema } from '../_lib/domain-schema';
import { SourceIds } from '../_lib/links';
import { ConsoleShell } from '../_lib/shell';
import { errorMessage, useTRPC } from '../_lib/trpc';
import { ErrorNote, Loading, NextPageButton, buttonClass, inputClass, secondaryButtonClass, when } from '../_lib/ui';

type Filters = {
  plan?: string;
  has_open_issues?: 'true' | 'false';
  sentiment?: 'positive' | 'neutral' | 'negative';
  sentiment_trend?: 'improving' | 'stable' | 'declining' | 'insufficient_data';
  escalated?: 'true' | 'false';
  channel?: string;
  sort: 'last_contact' | 'open_issues' | 'sentiment';
};

const sentimentClass = (label: string | null) =>
  label === 'negative' ? 'bg-red-100 text-red-900' : label === 'positive' ? 'bg-emerald-100 text-emerald-900' : 'bg-slate-100 text-slate-800';

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[10rem_1fr] gap-2 py-2 text-sm">
      <dt className="text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

const none = <span className="text-slate-500">—</span>;

function CustomerProfile({ externalUserId, onClose }: { externalUserId: string; onClose: () => void }) {
  const trpc = useTRPC();
  const q = useQuery({ ...trpc.domains.customer.queryOptions({ external_user_id: externalUserId }), retry: false });
  if (q.isPending) return <Loading />;
  if (q.error) return <ErrorNote error={errorMessage(q.error)} />;
  const p = q.data;
  const entries = (list: typeof p.plan) =>
    list.length === 0 ? (
      none
    ) : (
      <ul className="space-y-1">
        {list.map((e) => (
          <li key={e.value}>
            {e.value}
            <SourceIds memoryIds={e.memory_ids} eventIds={e.source_event_ids} />
          </li>
        ))}
      </ul>
    );
  const issues = (list: typeof p.open_issues) =>
    list.length === 0 ? (
      none
    ) : (
      <ul className="space-y-2">
        {list.map((i) => (
          <li key={`${i.ticket}-${i.value}`}>
            <span className="text-slate-900">{i.value}</span>
            <span className="ml-2 text-slate-600">
              {i.ticket ? `ticket ${i.ticket} · ` : ''}reported {when(i.opened_at)}
              {i.resolution ? ` · resolved ${when(i.resolution.resolved_at)} (${i.resolution.by.replace('_', ' ')})` : ''}
            </span>
            <SourceIds memoryIds={i.memory_ids} eventIds={i.source_event_ids} />
          </li>
        ))}
      </ul>
    );
  return (
    <section aria-label="Customer profile" className="rounded border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-lg font-semibold">Customer profile of “{p.external_user_id}”</h2>
        <button type="button" className={secondaryButtonClass} onClick={onClose}>
          Close
        </button>
      </div>
      <p className="text-xs text-slate-500">
        {p.conversation_count} conversations · {p.memory_count} active memories · first contact {when(p.first_contact_at)} · last contact{' '}
        {when(p.last_contact_at)}
      </p>
      <dl className="mt-3 divide-y divide-slate-100">
        <Row label="Plan">{entries(p.plan)}</Row>
        <Row label="Products">{entries(p.products)}</Row>
        <Row label="Environment">{entries(p.environment)}</Row>
        <Row label="Open issues">{issues(p.open_issues)}</Row>
        <Row label="Past issues">{issues(p.past_issues)}</Row>
        <Row label="Sentiment">
          {p.sentiment.latest === null ? (
            none
          ) : (
            <>
              <span className={`rounded px-2 py-0.5 text-xs ${sentimentClass(p.sentiment.label)}`}>{p.sentiment.label}</span>
              <span className="ml-2">
                latest {p.sentiment.latest.toFixed(2)} · average {p.sentiment.average?.toFixed(2)} · trend {p.sentiment.trend.replace('_', ' ')}
              </span>
              <span className="block font-mono text-xs text-slate-500">
                {p.sentiment.points.map((pt) => `${pt.observed_at.slice(0, 10)} ${pt.score.toFixed(2)}`).join(' → ')}
              </span>
            </>
          )}
        </Row>
        <Row label="Preferred channel">
          {p.preferred_channel ? (
            <>
              {p.preferred_channel.value} <span className="text-slate-600">({p.preferred_channel.basis.replace('_', ' ')})</span>
              <SourceIds memoryIds={p.preferred_channel.memory_ids} eventIds={p.preferred_channel.source_event_ids} />
            </>
          ) : (
            none
          )}
          {p.channels.length > 0 ? (
            <span className="block text-xs text-slate-600">{p.channels.map((c) => `${c.channel} ${c.conversations}`).join(' · ')}</span>
          ) : null}
        </Row>
        <Row label="Escalations">
          {p.escalations.length === 0 ? (
            none
          ) : (
            <ul className="space-y-1">
              {p.escalations.map((e) => (
                <li key={`${e.observed_at}-${e.value}`}>
                  {e.value} <span className="text-slate-600">· {when(e.observed_at)}{e.ticket ? ` · ticket ${e.ticket}` : ''}</span>
                  <SourceIds memoryIds={e.memory_ids} eventIds={e.source_event_ids} />
                </li>
              ))}
            </ul>
          )}
        </Row>
      </dl>
    </section>
  );
}

function Choice({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: string;
  onChange: (e: { target: { value: string } }) => void;
  options: Array<[string, string]>;
}) {
  return (
    <label className="block text-sm font-medium">
      {label}
      <select className={inputClass} value={value} onChange={onChange}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

function select<T extends string>(value: string, options: readonly T[]): T | undefined {
  return (options as readonly string[]).includes(value) ? (value as T) : undefined;
}

function Customers() {
  const trpc = useTRPC();
  const [draft, setDraft] = useState({ plan: '', open: '', sentiment: '', trend: '', escalated: '', channel: '', sort: 'last_contact' });
  const [filters, setFilters] = useState<Filters>({ sort: 'last_contact' });
  const [selected, setSelected] = useState<string | null>(null);
  const q = useInfiniteQuery({
    ...trpc.domains.customers.infiniteQueryOptions({ ...filters, limit: 20 }, { getNextPageParam: (last) => last.next_cursor ?? undefined }),
    retry: false,
  });
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setFilters({
      ...(draft.plan.trim() ? { plan: draft.plan.trim() } : {}),
      ...(draft.channel.trim() ? { channel: draft.channel.trim() } : {}),
      has_open_issues: select(draft.open, ['true', 'false'] as const),
      sentiment: select(draft.sentiment, ['positive', 'neutral', 'negative'] as const),
      sentiment_trend: select(draft.trend, ['improving', 'stable', 'declining', 'insufficient_data'] as const),
      escalated: select(draft.escalated, ['true', 'false'] as const),
      sort: select(draft.sort, ['last_contact', 'open_issues', 'sentiment'] as const) ?? 'last_contact',
    });
  };
  const set = (key: keyof typeof draft) => (e: { target: { value: string } }) => setDraft({ ...draft, [key]: e.target.value });
  const customers = q.data?.pages.flatMap((p) => p.customers) ?? [];
  const total = q.data?.pages[0]?.total;
  return (
    <>
      <form onSubmit={apply} className="mt-6 grid grid-cols-2 items-end gap-2 md:grid-cols-4 lg:grid-cols-8" aria-label="Filter customers">
        <label className="block text-sm font-medium">
          Plan
          <input className={inputClass} value={draft.plan} onChange={set('plan')} placeholder="pro" />
        </label>
        <Choice label="Open issues" value={draft.open} onChange={set('open')} options={[['', 'Any'], ['true', 'With open issues'], ['false', 'None open']]} />
        <Choice
          label="Sentiment"
          value={draft.sentiment}
          onChange={set('sentiment')}
          options={[['', 'Any'], ['negative', 'Negative'], ['neutral', 'Neutral'], ['positive', 'Positive']]}
        />
        <Choice
          label="Trend"
          value={draft.trend}
          onChange={set('trend')}
          options={[['', 'Any'], ['declining', 'Declining'], ['stable', 'Stable'], ['improving', 'Improving'], ['insufficient_data', 'Too little data']]}
        />
        <Choice label="Escalated" value={draft.escalated} onChange={set('escalated')} options={[['', 'Any'], ['true', 'Escalated'], ['false', 'Never escalated']]} />
        <label className="block text-sm font-medium">
          Channel
          <input className={inputClass} value={draft.channel} onChange={set('channel')} placeholder="email" />
        </label>
        <Choice
          label="Sort"
          value={draft.sort}
          onChange={set('sort')}
          options={[['last_contact', 'Last contact'], ['open_issues', 'Open issues'], ['sentiment', 'Most negative']]}
        />
        <button type="submit" className={buttonClass}>
          Apply filters
        </button>
      </form>
      <div className="mt-4">
        {q.isPending ? (
          <Loading />
        ) : q.error ? (
          <ErrorNote error={errorMessage(q.error)} />
        ) : customers.length === 0 ? (
          <p className="text-slate-500">No customers match.</p>
        ) : (
          <>
            <p className="text-sm text-slate-600" role="status">
              {total} customer{total === 1 ? '' : 's'} match
            </p>
            <div className="mt-2 overflow-x-auto">
              <table className="min-w-full border border-slate-200 bg-white text-sm" aria-label="Customers">
                <thead className="bg-slate-50 text-left text-slate-600">
                  <tr>
                    <th className="px-3 py-2">Customer</th>
                    <th className="px-3 py-2">Plan</th>
                    <th className="px-3 py-2">Open / past issues</th>
                    <th className="px-3 py-2">Sentiment</th>
                    <th className="px-3 py-2">Channel</th>
                    <th className="px-3 py-2">Escalations</th>
                    <th className="px-3 py-2">Last contact</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {customers.map((c) => (
                    <tr key={c.external_user_id}>
                      <td className="px-3 py-2">
                        <button type="button" className="font-mono text-blue-800 underline" onClick={() => setSelected(c.external_user_id)}>
                          {c.external_user_id}
                        </button>
                      </td>
                      <td className="px-3 py-2">{c.plan ?? '—'}</td>
                      <td className="px-3 py-2">
                        {c.open_issues} / {c.past_issues}
                      </td>
                      <td className="px-3 py-2">
                        {c.sentiment === null ? (
                          '—'
                        ) : (
                          <span className={`rounded px-2 py-0.5 text-xs ${sentimentClass(c.sentiment_label)}`}>
                            {c.sentiment_label} {c.sentiment.toFixed(2)} · {c.sentiment_trend.replace('_', ' ')}
                          </span>
                        )}
                      </td>
                      <td className="px-3 py-2">{c.preferred_channel ?? '—'}</td>
                      <td className="px-3 py-2">{c.escalations}</td>
                      <td className="px-3 py-2">{when(c.last_contact_at)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
        <NextPageButton query={q} />
      </div>
      <div className="mt-6">{selected ? <CustomerProfile externalUserId={selected} onClose={() => setSelected(null)} /> : null}</div>
    </>
  );
}

export default function CustomersPage() {
  return (
    <ConsoleShell title="Customers">
      <DomainSchema requires="customer_support" />
      <DomainGate schema="customer_support">
        <Customers />
      </DomainGate>
    </ConsoleShell>
  );
}
