'use client';
/**
 * The tenant's plan, its current period, the remaining budget, the quota mode and a daily usage chart for the
 * period (docs/quotas.md). Tenant-scoped by the console session like every console page.
 */
import { useQuery } from '@tanstack/react-query';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ConsoleShell } from '../_lib/shell';
import { errorMessage, useTRPC } from '../_lib/trpc';
import { ErrorNote, Field, Loading, when } from '../_lib/ui';

const MODE_STYLE: Record<string, string> = {
  FULL: 'bg-green-100 text-green-900',
  DEGRADED_RETRIEVE: 'bg-amber-100 text-amber-900',
  PASSTHROUGH: 'bg-orange-100 text-orange-900',
  BLOCKED: 'bg-red-100 text-red-900',
};

const MODE_MEANING: Record<string, string> = {
  FULL: 'Adds are extracted and retrieve ranks with every signal.',
  DEGRADED_RETRIEVE: 'Retrieve answers from the cheaper path (no embeddings call, at most 5 memories).',
  PASSTHROUGH: 'Adds are kept but not extracted; retrieve tells agents to skip memory context.',
  BLOCKED: 'Adds are refused and retrieve tells agents to skip memory context until the plan changes or a new period starts.',
};

const UNITS = [
  ['add_calls', 'Add calls'],
  ['retrieve_calls', 'Retrieve calls'],
] as const;

/** Every UTC day from the period's start to today, with zero on the days without usage. */
function chartDays(periodStart: string, daily: { day: string; add_calls: number; retrieve_calls: number }[]) {
  const byDay = new Map(daily.map((d) => [d.day, d]));
  const days = [];
  const today = new Date().toISOString().slice(0, 10);
  for (let d = new Date(`${periodStart.slice(0, 10)}T00:00:00Z`); d.toISOString().slice(0, 10) <= today; d.setUTCDate(d.getUTCDate() + 1)) {
    const day = d.toISOString().slice(0, 10);
    const row = byDay.get(day);
    days.push({ day: day.slice(5), add_calls: row?.add_calls ?? 0, retrieve_calls: row?.retrieve_calls ?? 0 });
  }
  return days;
}

export default function UsagePage() {
  const trpc = useTRPC();
  const q = useQuery(trpc.usage.get.queryOptions());
  return (
    <ConsoleShell title="Usage">
      {q.isPending ? (
        <Loading />
      ) : q.error ? (
        <ErrorNote error={errorMessage(q.error)} />
      ) : (
        <div className="space-y-6">
          <section aria-label="Plan" className="rounded border border-slate-200 bg-white p-4">
            <div className="flex flex-wrap items-center gap-3">
              <h2 className="text-lg font-semibold">Plan: {q.data.plan.name}</h2>
              <span className={`rounded px-2 py-0.5 text-sm font-medium ${MODE_STYLE[q.data.quota_mode]}`} aria-label="Quota mode">
                {q.data.quota_mode}
              </span>
            </div>
            <p className="mt-1 text-sm text-slate-600">{MODE_MEANING[q.data.quota_mode]}</p>
            <dl className="mt-3">
              <Field label="Period" value={`${when(q.data.period.start)} – ${when(q.data.period.end)}`} />
              <Field
                label="Budget left"
                value={q.data.budget_remaining_pct === null ? 'unlimited' : `${q.data.budget_remaining_pct} %`}
              />
              <Field
                label="Thresholds"
                value={`degraded retrieve ≤ ${q.data.thresholds.degraded_retrieve_at_pct} %, passthrough ≤ ${q.data.thresholds.passthrough_at_pct} %, blocked at ${q.data.thresholds.blocked_at_pct} %`}
              />
              <Field
                label="Write rates"
                value={`${q.data.rate_limits.user_writes_per_minute ?? 'unlimited'} per user, ${q.data.rate_limits.tenant_writes_per_minute ?? 'unlimited'} per tenant, per minute`}
              />
            </dl>
          </section>
          <section aria-label="Usage this period" className="rounded border border-slate-200 bg-white p-4">
            <h2 className="text-lg font-semibold">Usage this period</h2>
            <table className="mt-2 text-sm">
              <thead>
                <tr className="text-left text-slate-500">
                  <th className="pr-6 font-medium">Unit</th>
                  <th className="pr-6 font-medium">Used</th>
                  <th className="font-medium">Budget</th>
                </tr>
              </thead>
              <tbody>
                {UNITS.map(([unit, label]) => (
                  <tr key={unit}>
                    <td className="pr-6">{label}</td>
                    <td className="pr-6 font-mono">{q.data.usage[unit]}</td>
                    <td className="font-mono">{q.data.budgets[unit] ?? 'unlimited'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <figure className="mt-4" aria-label="Daily usage chart">
              <ResponsiveContainer width="100%" height={260}>
                <BarChart data={chartDays(q.data.period.start, q.data.daily)}>
                  <CartesianGrid strokeDasharray="3 3" />
                  <XAxis dataKey="day" />
                  <YAxis allowDecimals={false} />
                  <Tooltip />
                  <Legend />
                  <Bar dataKey="add_calls" name="Add calls" fill="#1d4ed8" maxBarSize={40} isAnimationActive={false} />
                  <Bar dataKey="retrieve_calls" name="Retrieve calls" fill="#0d9488" maxBarSize={40} isAnimationActive={false} />
                </BarChart>
              </ResponsiveContainer>
              <figcaption className="text-xs text-slate-500">Calls per UTC day since the period began.</figcaption>
            </figure>
          </section>
        </div>
      )}
    </ConsoleShell>
  );
}
