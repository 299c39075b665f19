'use client';
/**
 * One end user's memories (by external id, or `?user=` from the Users page) with a status filter; a memory's ledger
 * history on click, and a link to the memory's own page (its provenance and the changes an admin can make).
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { type FormEvent, Suspense, useState } from 'react';
import { memoryHref } from '../_lib/links';
import { MemoryHistory } from '../_lib/memory-history';
import { ConsoleShell } from '../_lib/shell';
import { errorMessage, useTRPC } from '../_lib/trpc';
import { ErrorNote, Loading, NextPageButton, buttonClass, inputClass, when } from '../_lib/ui';

const STATUSES = ['all', 'active', 'pending', 'inactive', 'archived'] as const;
type Status = (typeof STATUSES)[number];

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
  if (items.length === 0) return <p className="text-slate-600">No memories for “{externalUserId}” with this status.</p>;
  return (
    <>
      <ul className="space-y-2" aria-label={`Memories of ${externalUserId}`}>
        {items.map((m) => (
          <li key={m.id} className="rounded border border-slate-200 bg-white p-3">
            <button type="button" className="w-full text-left" aria-expanded={open === m.id} onClick={() => setOpen(open === m.id ? null : m.id)}>
              <span className="block break-words">{m.content}</span>
              <span className="mt-1 block text-xs text-slate-600">
                {m.category} · {m.status} · confidence {m.confidence.toFixed(2)} · {m.provenance?.service ?? 'default'} · {when(m.created_at)}
              </span>
            </button>
            <Link href={memoryHref(m.id)} className="mt-1 inline-block text-sm text-blue-800 underline">
              Open memory<span className="sr-only">: {m.content}</span>
            </Link>
            {open === m.id && <MemoryHistory memoryId={m.id} />}
          </li>
        ))}
      </ul>
      <NextPageButton query={q} />
    </>
  );
}

function MemoriesOfUser() {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const user = params.get('user');
  const deleted = params.get('deleted') === '1';
  const [input, setInput] = useState(user ?? '');
  const [status, setStatus] = useState<Status>('all');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // the user is in the address, so the page can be linked to, reloaded and reached with Back
    if (input.trim()) router.push(`${pathname}?user=${encodeURIComponent(input.trim())}`);
  };
  return (
    <>
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
      {deleted ? (
        <p role="status" className="mt-4 rounded border border-green-200 bg-green-50 p-2 text-sm text-green-900">
          The memory was deleted permanently.
        </p>
      ) : null}
      <div className="mt-4">
        {user ? (
          <Memories externalUserId={user} status={status} />
        ) : (
          <p className="text-slate-600">
            Enter a user’s external id, or pick one on the{' '}
            <Link href="/console/users" className="text-blue-800 underline">
              Users
            </Link>{' '}
            page.
          </p>
        )}
      </div>
    </>
  );
}

export default function MemoriesPage() {
  return (
    <ConsoleShell title="Memories">
      <Suspense fallback={<Loading />}>
        <MemoriesOfUser />
      </Suspense>
    </ConsoleShell>
  );
}
