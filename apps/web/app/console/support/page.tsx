'use client';
/**
 * Support dashboard (docs/domain-schemas.md, "Support stats"): totals over a window against the window before,
 * the state now, and a chart of conversations, issues opened and resolved, and average sentiment per day or week.
 * Tenant-scoped by the console session.
 */
import type { SupportStats } from '@memory/core/browser';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { DomainGate, DomainSchema } from '../_lib/domain-schema';
import { ConsoleShell } from '../_lib/shell';
import { errorMessage, useTRPC } from '../_lib/trpc';
import { ErrorNote, Loading, inputClass } from '../_lib/ui';

const WINDOWS = [
  ['7d', 'Last 7 days'],
  ['30d', 'Last 30 days'],
  ['90d', 'Last 90 days'],
  ['365d', 'Last 365 days'],
] as const;

function Kpi({ label, value, previous, lowerIsBetter = false }: { label: string; value: number | null; previous: number | null; lowerIsBetter?: boolean }) {
  const delta = value !== null && previous !== null ? value - previous : null;
  const good = delta === null || delta === 0 ? null : lowerIsBetter ? delta < 0 : delta > 0;
  return (
    <div className="rounded border border-slate-200 bg-white p-3" role="group" aria-label={label}>
      <p className="text-xs text-slate-500">{label}</p>
      <p className="text-2xl font-semibold tabular-nums">{value === null ? '—' : Number.isInteger(value) ? value : value.toFixed(2)}</p>
      <p className={`text-xs ${good === null ? 'text-slate-500' : good ? 'text-emerald-700' : 'text-red-700'}`}>
        {previous === null ? 'no data before' : `before: ${Number.isInteger(previous) ? previous : previous.toFixed(2)}`}
      </p>
    </div>
  );
}

function Dashboard() {
  const trpc = useTRPC();
  const [span, setSpan] = useState<string>('30d');
  const q = useQuery({ ...trpc.domains.supportStats.queryOptions({ window: span }), retry: false });
  return (
    <>
      <label className="mt-6 block max-w-xs text-sm font-medium">
        Window
        <select className={inputClass} value={span} onChange={(e) => setSpan(e.target.value)}>
          {WINDOWS.map(([id, label]) => (
            <option key={id} value={id}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <div className="mt-4">
        {q.isPending ? (
          <Loading />
        ) : q.error ? (
          <ErrorNote error={errorMessage(q.error)} />
        ) : (
          <Stats data={q.data} />
        )}
      </div>
    </>
  );
}

function Stats({ data }: { data: SupportStats }) {
  const t = data.totals;
  const p = data.previous;
  const series = data.series.map((s) => ({ ...s, label: s.start.slice(5, 10) }));
  return (
    <>
      <p className="text-sm text-slate-600">
        {new Date(data.window.from).toLocaleDateString()} – {new Date(data.window.to).toLocaleDateString()} · per {data.window.bucket}
      </p>
      <div className="mt-3 grid grid-cols-2 gap-3 md:grid-cols-4">
        <Kpi label="Conversations" value={t.conversations} previous={p.conversations} />
        <Kpi label="Customers contacted" value={t.customers_contacted} previous={p.customers_contacted} />
        <Kpi label="Issues opened" value={t.issues_opened} previous={p.issues_opened} lowerIsBetter />
        <Kpi label="Issues resolved" value={t.issues_resolved} previous={p.issues_resolved} />
        <Kpi label="Escalations" value={t.escalations} previous={p.escalations} lowerIsBetter />
        <Kpi label="Negative conversations" value={t.negative_conversations} previous={p.negative_conversations} lowerIsBetter />
        <Kpi label="Average sentiment" value={t.average_sentiment} previous={p.average_sentiment} />
        <Kpi label="Median hours to resolve" value={t.median_resolution_hours} previous={p.median_resolution_hours} lowerIsBetter />
      </div>

      <section aria-label="Activity chart" className="mt-6 rounded border border-slate-200 bg-white p-4">
        <h2 className="text-lg font-semibold">Conversations, issues and sentiment per {data.window.bucket}</h2>
        <div className="mt-3 h-72 w-full">
          <ResponsiveContainer width="100%" height="100%">
            <ComposedChart data={series} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
              <XAxis dataKey="label" fontSize={12} />
              <YAxis yAxisId="count" allowDecimals={false} fontSize={12} />
              <YAxis yAxisId="sentiment" orientation="right" domain={[-1, 1]} fontSize={12} />
              <Tooltip />
              <Legend />
              <Bar yAxisId="count" dataKey="conversations" name="Conversations" fill="#94a3b8" isAnimationActive={false} />
              <Bar yAxisId="count" dataKey="issues_opened" name="Issues opened" fill="#dc2626" isAnimationActive={false} />
              <Bar yAxisId="count" dataKey="issues_resolved" name="Issues resolved" fill="#059669" isAnimationActive={false} />
              <Line
                yAxisId="sentiment"
                type="monotone"
                dataKey="average_sentiment"
                name="Average sentiment"
                stroke="#1d4ed8"
                connectNulls
                isAnimationActive={false}
              />
            </ComposedChart>
          </ResponsiveContainer>
        </div>
      </section>

      <div className="mt-6 grid gap-4 md:grid-cols-2">
        <section aria-label="Now" className="rounded border border-slate-200 bg-white p-4">
          <h2 className="text-lg font-semibold">Now</h2>
          <dl className="mt-2 grid grid-cols-[14rem_1fr] gap-1 text-sm">
            <dt className="text-slate-500">Customers</dt>
            <dd>{data.current.customers}</dd>
            <dt className="text-slate-500">Open issues</dt>
            <dd>{data.current.open_issues}</dd>
            <dt className="text-slate-500">Customers with open issues</dt>
            <dd>{data.current.customers_with_open_issues}</dd>
            <dt className="text-slate-500">Customers negative</dt>
            <dd>{data.current.customers_negative}</dd>
            <dt className="text-slate-500">Customers declining</dt>
            <dd>{data.current.customers_declining}</dd>
          </dl>
        </section>
        <section aria-label="Breakdown" className="rounded border border-slate-200 bg-white p-4">
          <h2 className="text-lg font-semibold">Breakdown</h2>
          <h3 className="mt-2 text-sm font-medium text-slate-600">Channels in the window</h3>
          <p className="text-sm">{data.channels.length ? data.channels.map((c) => `${c.channel} ${c.conversations}`).join(' · ') : '—'}</p>
          <h3 className="mt-2 text-sm font-medium text-slate-600">Plans</h3>
          <p className="text-sm">{data.plans.length ? data.plans.map((x) => `${x.plan} ${x.customers}`).join(' · ') : '—'}</p>
          <h3 className="mt-2 text-sm font-medium text-slate-600">Frequent words in new issues</h3>
          <p className="text-sm">{data.top_issue_terms.length ? data.top_issue_terms.map((x) => `${x.term} ${x.issues}`).join(' · ') : '—'}</p>
        </section>
      </div>
    </>
  );
}

export default function SupportPage() {
  return (
    <ConsoleShell title="Support dashboard">
      <DomainSchema requires="customer_support" />
      <DomainGate schema="customer_support">
        <Dashboard />
      </DomainGate>
    </ConsoleShell>
  );
}
