'use client';
/** End users: the tenant's external user ids with memory counts and last activity; search, paging, links to memories, erasing a user. */
import { useInfiniteQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { type FormEvent, useState } from 'react';
import { UserLink, sourceEventsOfUserHref } from '../_lib/links';
import { ConsoleShell } from '../_lib/shell';
import { errorMessage, useTRPC } from '../_lib/trpc';
import { ErrorNote, Loading, NextPageButton, buttonClass, inputClass, when } from '../_lib/ui';
import { EraseUserButton, EraseUserDialog } from './erase-user';

function Users() {
  const trpc = useTRPC();
  const [input, setInput] = useState('');
  const [search, setSearch] = useState('');
  const [erasing, setErasing] = useState<string | null>(null);
  const q = useInfiniteQuery(
    trpc.users.list.infiniteQueryOptions({ search: search || undefined, limit: 25 }, { getNextPageParam: (last) => last.next_cursor ?? undefined }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSearch(input.trim());
  };
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <>
      <form onSubmit={submit} role="search" aria-label="Search users" className="flex flex-wrap items-end gap-2">
        <label className="block text-sm font-medium">
          External user id contains
          <input className={inputClass} value={input} onChange={(e) => setInput(e.target.value)} placeholder="user_4" />
        </label>
        <button type="submit" className={buttonClass}>
          Search
        </button>
      </form>
      <div className="mt-4">
        {q.isPending ? (
          <Loading />
        ) : q.error ? (
          <ErrorNote error={errorMessage(q.error)} />
        ) : items.length === 0 ? (
          <p className="text-slate-600">{search ? `No user id contains “${search}”.` : 'No end users yet: they appear with their first conversation.'}</p>
        ) : (
          <div className="relative overflow-x-auto">
            {/* relative: the header cell's sr-only text is placed inside this scroll box, not past the page's edge */}
            <table className="min-w-full border border-slate-200 bg-white text-sm" aria-label="End users">
              <thead className="bg-slate-50 text-left text-slate-600">
                <tr>
                  <th className="px-3 py-2">External user id</th>
                  <th className="px-3 py-2">Active memories</th>
                  <th className="px-3 py-2">All memories</th>
                  <th className="px-3 py-2">Source events</th>
                  <th className="px-3 py-2">Last activity</th>
                  <th className="px-3 py-2">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {items.map((u) => (
                  <tr key={u.external_user_id}>
                    <td className="px-3 py-2">
                      <UserLink externalUserId={u.external_user_id} />
                    </td>
                    <td className="px-3 py-2 tabular-nums">{u.active_memories}</td>
                    <td className="px-3 py-2 tabular-nums">{u.memories}</td>
                    <td className="px-3 py-2 tabular-nums">
                      {u.source_events > 0 ? (
                        <Link
                          href={sourceEventsOfUserHref(u.external_user_id)}
                          className="text-blue-800 underline"
                          aria-label={`${u.source_events} source events of user ${u.external_user_id}`}
                        >
                          {u.source_events}
                        </Link>
                      ) : (
                        0
                      )}
                    </td>
                    <td className="px-3 py-2">{when(u.last_activity_at)}</td>
                    <td className="px-3 py-2">
                      <EraseUserButton externalUserId={u.external_user_id} onClick={() => setErasing(u.external_user_id)} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <NextPageButton query={q} />
      </div>
      {erasing ? <EraseUserDialog externalUserId={erasing} onClose={() => setErasing(null)} /> : null}
    </>
  );
}

export default function UsersPage() {
  return (
    <ConsoleShell title="Users">
      <Users />
    </ConsoleShell>
  );
}
