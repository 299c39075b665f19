'use client';
/** Access log (docs/consent-app.md): which agent read your memories, when, how many and of which categories. */
import { useInfiniteQuery } from '@tanstack/react-query';
import { errorMessage, useTRPC } from '../console/_lib/trpc';
import { ErrorNote, Loading, NextPageButton, when } from '../console/_lib/ui';
import { categoryLabel } from './_lib/client';

const HOW: Record<string, string> = { retrieve: 'searched', list: 'listed' };

export function AccessLog({ retentionDays }: { retentionDays: number }) {
  const trpc = useTRPC();
  // agents read outside this page: fresh on every visit to the tab
  const log = useInfiniteQuery(
    trpc.passport.accessLog.infiniteQueryOptions({}, { getNextPageParam: (last) => last.next_cursor ?? undefined, refetchOnMount: 'always' }),
  );
  const items = log.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <>
      <p className="mb-4 text-sm text-slate-600">
        Every time an agent read your memories: when, how many it got and of which categories. Kept for {retentionDays} days.
      </p>
      {log.isPending ? (
        <Loading />
      ) : log.error ? (
        <ErrorNote error={errorMessage(log.error)} />
      ) : items.length === 0 ? (
        <p className="text-sm text-slate-600">No agent has read your memories yet.</p>
      ) : (
        <ol aria-label="Reads by agents, newest first" className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
          {items.map((e) => (
            <li key={e.id} className="p-4">
              <p>
                <span className="font-medium">{e.agent.name}</span> {HOW[e.kind] ?? e.kind} your memories and got{' '}
                <span className="font-medium">{e.memories_returned === 1 ? '1 memory' : `${e.memories_returned} memories`}</span>
                {e.categories.length > 0 ? ` (${e.categories.map(categoryLabel).join(', ')})` : ''}
              </p>
              <p className="text-sm text-slate-600">
                <time dateTime={e.created_at}>{when(e.created_at)}</time> · {e.channel === 'mcp' ? 'through MCP' : 'through the API'}
              </p>
            </li>
          ))}
        </ol>
      )}
      <NextPageButton query={log} />
    </>
  );
}
