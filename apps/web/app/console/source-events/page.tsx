'use client';
/** Source events: what each service sent, with payload hash, linked job, evidence and redaction state. */
import { useInfiniteQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ConsoleShell } from '../_lib/shell';
import { errorMessage, useTRPC } from '../_lib/trpc';
import { ErrorNote, Field, Loading, NextPageButton, buttonClass, inputClass, when } from '../_lib/ui';

function SourceEvents() {
  const trpc = useTRPC();
  const [user, setUser] = useState('');
  const [service, setService] = useState('');
  const [filters, setFilters] = useState<{ external_user_id?: string; source_service?: string }>({});
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
          <p className="text-slate-500">No source events match.</p>
        ) : (
          <ul className="space-y-3">
            {items.map((e) => (
              <li key={e.id}>
                <article aria-label={`Source event ${e.event_id}`} className="rounded border border-slate-200 bg-white p-3">
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    <h2 className="font-mono text-sm font-semibold">
                      {e.service} / {e.event_id}
                    </h2>
                    <span className={`rounded px-2 py-0.5 text-xs ${e.payload_redacted ? 'bg-amber-100 text-amber-900' : 'bg-emerald-100 text-emerald-900'}`}>
                      {e.payload_redacted ? 'Payload redacted' : 'Payload kept'}
                    </span>
                  </div>
                  <dl className="mt-2">
                    <Field label="User" value={e.external_user_id} />
                    <Field label="Observed" value={when(e.observed_at)} />
                    <Field label="Received" value={when(e.received_at)} />
                    <Field label="Payload hash" value={e.payload_hash} />
                    <Field label="Job" value={e.job_id ? `${e.job_id} (${e.job_status ?? 'unknown'})` : null} />
                    <Field label="Writer" value={e.writer_id} />
                    <Field
                      label="Evidence"
                      value={e.evidence.length ? e.evidence.map((x) => `${x.source_type}: ${x.reference}`).join(', ') : null}
                    />
                    <Field label="Scope" value={Object.keys(e.scope).length ? JSON.stringify(e.scope) : null} />
                  </dl>
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
      <SourceEvents />
    </ConsoleShell>
  );
}
