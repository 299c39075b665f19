'use client';
/** One end user's memories (by external id) with a status filter; a memory's ledger history on click. */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ConsoleShell } from '../_lib/shell';
import { errorMessage, useTRPC } from '../_lib/trpc';
import { ErrorNote, Loading, NextPageButton, buttonClass, inputClass, when } from '../_lib/ui';

const STATUSES = ['all', 'active', 'pending', 'inactive', 'archived'] as const;
type Status = (typeof STATUSES)[number];

function History({ memoryId }: { memoryId: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.memories.history.queryOptions({ memory_id: memoryId }));
  if (q.isPending) return <Loading />;
  if (q.error) return <ErrorNote error={errorMessage(q.error)} />;
  return (
    <ol className="mt-2 space-y-2 border-l-2 border-slate-200 pl-3" aria-label="Ledger history">
      {q.data.map((r) => (
        <li key={r.id} className="text-sm">
          <div>
            <span className="font-medium">{r.action}</span> {r.from_status ?? '∅'} → {r.to_status} ·{' '}
            <time dateTime={r.created_at}>{when(r.created_at)}</time>
          </div>
          <div className="text-slate-600">{r.reason}</div>
          <div className="font-mono text-xs text-slate-500">
            by {r.actor}
            {r.source_event_id ? ` · source event ${r.source_event_id}` : ''}
          </div>
          <div className="text-xs text-slate-700">“{r.content}”</div>
        </li>
      ))}
    </ol>
  );
}

function Memories({ externalUserId, status }: { externalUserId: string; status: Status }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState<string | null>(null);
  const q = useInfiniteQuery(
    trpc.memories.listForUser.infiniteQueryOptions(
      { external_user_id: externalUserId, status, limit: 50 },
      { getNextPageParam: (last) => last.next_cursor ?? undefined },
    ),
  );
  if (q.isPending) return <Loading />;
  if (q.error) return <ErrorNote error={errorMessage(q.error)} />;
  const items = q.data.pages.flatMap((p) => p.items);
  if (items.length === 0) return <p className="text-slate-500">No memories for “{externalUserId}” with this status.</p>;
  return (
    <>
      <ul className="space-y-2">
        {items.map((m) => (
          <li key={m.id} className="rounded border border-slate-200 bg-white p-3">
            <button
              type="button"
              className="w-full text-left"
              aria-expanded={open === m.id}
              onClick={() => setOpen(open === m.id ? null : m.id)}
            >
              <span className="block">{m.content}</span>
              <span className="mt-1 block text-xs text-slate-600">
                {m.category} · {m.status} · confidence {m.confidence.toFixed(2)} · {m.provenance?.service ?? 'default'} · {when(m.created_at)}
              </span>
            </button>
            {open === m.id && <History memoryId={m.id} />}
          </li>
        ))}
      </ul>
      <NextPageButton query={q} />
    </>
  );
}

export default function MemoriesPage() {
  const [input, setInput] = useState('');
  const [user, setUser] = useState<string | null>(null);
  const [status, setStatus] = useState<Status>('all');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (input.trim()) setUser(input.trim());
  };
  return (
    <ConsoleShell title="Memories">
      <form onSubmit={submit} className="flex flex-wrap items-end gap-2">
        <label className="block text-sm font-medium">
          External user id
          <input className={inputClass} required value={input} onChange={(e) => setInput(e.target.value)} />
        </label>
        <label className="block text-sm font-medium">
          Status
          <select className={inputClass} value={status} onChange={(e) => setStatus(e.target.value as Status)}>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className={buttonClass}>
          Show memories
        </button>
      </form>
      <div className="mt-4">{user ? <Memories externalUserId={user} status={status} /> : <p className="text-slate-500">Enter a user’s external id.</p>}</div>
    </ConsoleShell>
  );
}
