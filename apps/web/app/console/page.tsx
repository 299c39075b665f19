'use client';
/** Overview: counts for the admin's tenant, with links to the pages behind them. */
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { ConsoleShell } from './_lib/shell';
import { errorMessage, useTRPC } from './_lib/trpc';
import { ErrorNote, Loading } from './_lib/ui';

function Overview() {
  const trpc = useTRPC();
  const q = useQuery(trpc.overview.get.queryOptions());
  if (q.isPending) return <Loading />;
  if (q.error) return <ErrorNote error={errorMessage(q.error)} />;
  const cards = [
    { label: 'Open reviews', value: q.data.open_reviews, href: '/console/reviews', hint: 'Conflicting claims waiting for a decision' },
    { label: 'Source events', value: q.data.source_events, href: '/console/source-events', hint: 'What your services sent' },
    { label: 'End users', value: q.data.end_users, href: '/console/users', hint: 'Search users, see their memories' },
    { label: 'Active memories', value: q.data.active_memories, href: '/console/memories', hint: 'Memories retrieval can return' },
    { label: 'Service writers', value: q.data.service_writers, href: '/console/settings', hint: 'Named services and their authority' },
    { label: 'Active API keys', value: q.data.active_api_keys, href: '/console/settings', hint: 'Keys your backends use' },
  ];
  return (
    <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
      {cards.map((c) => (
        <li key={c.label}>
          <Link href={c.href} className="block rounded border border-slate-200 bg-white p-4 hover:border-blue-400">
            <div className="text-sm text-slate-600">{c.label}</div>
            <div className="mt-1 text-3xl font-semibold" aria-label={`${c.label}: ${c.value}`}>
              {c.value}
            </div>
            <div className="mt-1 text-xs text-slate-600">{c.hint}</div>
          </Link>
        </li>
      ))}
    </ul>
  );
}

export default function ConsoleHome() {
  return (
    <ConsoleShell title="Overview">
      <Overview />
    </ConsoleShell>
  );
}
