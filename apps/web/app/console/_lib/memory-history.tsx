'use client';
/** A memory's claim revision ledger, oldest first: on the memories list (expanded) and on the memory's page. */
import { useQuery } from '@tanstack/react-query';
import { IdLink, sourceEventHref } from './links';
import { errorMessage, useTRPC } from './trpc';
import { ErrorNote, Loading, when } from './ui';

export function MemoryHistory({ memoryId }: { memoryId: string }) {
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
          <div className="break-all font-mono text-xs text-slate-600">
            by {r.actor}
            {r.source_event_id ? (
              <>
                {' · source event '}
                <IdLink kind="Source event" id={r.source_event_id} href={sourceEventHref(r.source_event_id)} />
              </>
            ) : null}
          </div>
          <div className="text-xs text-slate-700">“{r.content}”</div>
        </li>
      ))}
    </ol>
  );
}
