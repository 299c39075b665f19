'use client';
/** Reviews: open conflicts and held memories first, then resolved ones. */
import { useInfiniteQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { ConsoleShell } from '../_lib/shell';
import { errorMessage, useTRPC } from '../_lib/trpc';
import { ErrorNote, Loading, secondaryButtonClass, when } from '../_lib/ui';

function ReviewList({ status, title }: { status: 'open' | 'resolved'; title: string }) {
  const trpc = useTRPC();
  const q = useInfiniteQuery(
    trpc.reviews.list.infiniteQueryOptions({ status, limit: 20 }, { getNextPageParam: (last) => last.next_cursor ?? undefined }),
  );
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <section aria-labelledby={`reviews-${status}`} className="mb-6">
      <h2 id={`reviews-${status}`} className="mb-2 text-lg font-semibold">
        {title}
      </h2>
      {q.isPending ? (
        <Loading />
      ) : q.error ? (
        <ErrorNote error={errorMessage(q.error)} />
      ) : items.length === 0 ? (
        <p className="text-sm text-slate-500">{status === 'open' ? 'No open reviews.' : 'No resolved reviews yet.'}</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded border border-slate-200 bg-white">
          {items.map((r) => (
            <li key={r.id}>
              <Link href={`/console/reviews/${r.id}`} className="block p-3 hover:bg-slate-50">
                <span className="block font-medium">{r.question}</span>
                <span className="mt-1 block text-xs text-slate-600">
                  {r.kind === 'pending_write' ? 'held memory' : 'conflict'} · {r.external_user_id} · {r.subject} ·{' '}
                  {status === 'open' ? `opened ${when(r.created_at)}` : `${r.decision ?? 'resolved'} ${when(r.resolved_at)}`}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {q.hasNextPage && (
        <button type="button" className={`${secondaryButtonClass} mt-2`} onClick={() => void q.fetchNextPage()} disabled={q.isFetchingNextPage}>
          More {status} reviews
        </button>
      )}
    </section>
  );
}

export default function ReviewsPage() {
  return (
    <ConsoleShell title="Reviews">
      <ReviewList status="open" title="Open" />
      <ReviewList status="resolved" title="Resolved" />
    </ConsoleShell>
  );
}
