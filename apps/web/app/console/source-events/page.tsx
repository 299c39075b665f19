'use client';
/**
 * Source events: what each service sent, with payload hash, linked job, evidence and redaction state; each links
 * to its page with the conversation. `?user=` opens the list filtered to one external user id (the Users page).
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { type FormEvent, Suspense, useState } from 'react';
import { JobState, UserLink, sourceEventHref } from '../_lib/links';
import { ConsoleShell } from '../_lib/shell';
import { errorMessage, useTRPC } from '../_lib/trpc';
import { ErrorNote, Field, Loading, NextPageButton, RedactionBadge, buttonClass, inputClass, when } from '../_lib/ui';

function SourceEvents() {
  const trpc = useTRPC();
  const initialUser = useSearchParams().get('user') ?? '';
  const [user, setUser] = useState(initialUser);
  const [service, setService] = useState('');
  const [filters, setFilters] = useState<{ external_user_id?: string; source_service?: string }>(initialUser ? { external_user_id: initialUser } : {});
  const q = useInfiniteQuery(
    trpc.sourceEvents.list.infiniteQueryOptions({ ...filters, limit: 20 }, { getNextPageParam: (last) => last.next_cursor ?? undefined }),
  );
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setFilters({ ...(user.trim() ? { external_user_id: user.trim() } : {}), ...(service.trim() ? { source_service: service.trim() } : {}) });
  };
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <>
      <form onSubmit={apply} className="flex flex-wrap items-end gap-2" aria-label="Filter source events">
        <label className="block text-sm font-medium">
          External user id
          <input className={inputClass} value={user} onChange={(e) => setUser(e.target.value)} />
        </label>
        <label className="block text-sm font-medium">
          Service
          <input className={inputClass} value={service} onChange={(e) => setService(e.target.value)} placeholder="default" />
        </label>
        <button type="submit" className={buttonClass}>
          Apply filters
        </button>
      </form>
      <div className="mt-4">
        {q.isPending ? (
          <Loading />
        ) : q.error ? (
          <ErrorNote error={errorMessage(q.error)} />
        ) : items.length === 0 ? (
          <p className="text-slate-600">No source events match.</p>
        ) : (
          <ul className="space-y-3">
            {items.map((e) => (
              <li key={e.id}>
                <article aria-label={`Source event ${e.event_id}`} className="rounded border border-slate-200 bg-white p-3">
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    <h2 className="min-w-0 break-all font-mono text-sm font-semibold">
                      {e.service} / {e.event_id}
                    </h2>
                    <RedactionBadge redacted={e.payload_redacted} />
                  </div>
                  <dl className="mt-2">
                    <Field label="User" value={<UserLink externalUserId={e.external_user_id} />} />
                    <Field label="Received" value={when(e.received_at)} />
                    <Field label="Job" value={e.job_id ? <JobState id={e.job_id} status={e.job_status} /> : null} />
                    <Field
                      label="Evidence"
                      value={e.evidence.length ? e.evidence.map((x) => `${x.source_type}: ${x.reference}`).join(', ') : null}
                    />
                  </dl>
                  <Link href={sourceEventHref(e.id)} className="mt-2 inline-block text-sm text-blue-800 underline">
                    {e.payload_redacted ? 'Details' : 'Conversation and details'}
                    <span className="sr-only"> of source event {e.event_id}</span>
                  </Link>
                </article>
              </li>
            ))}
          </ul>
        )}
        <NextPageButton query={q} />
      </div>
    </>
  );
}

export default function SourceEventsPage() {
  return (
    <ConsoleShell title="Source events">
      <Suspense fallback={<Loading />}>
        <SourceEvents />
      </Suspense>
    </ConsoleShell>
  );
}
