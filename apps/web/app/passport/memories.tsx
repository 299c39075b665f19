'use client';
/**
 * Your memories (docs/consent-app.md): every universal memory grouped by category, with the agent that wrote it and
 * when, a Delete button with an inline confirmation (`passport.deleteMemory`), and the export download
 * (`passport.exportPassport`, saved as a JSON file in the browser).
 */
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { MEMORY_CATEGORIES } from '@memory/core/browser';
import { useState } from 'react';
import { errorMessage, useTRPC } from '../console/_lib/trpc';
import { ErrorNote, Loading, NextPageButton, secondaryButtonClass, when } from '../console/_lib/ui';
import { Done, categoryLabel } from './_lib/client';

export const dangerButtonClass =
  'inline-flex items-center justify-center rounded bg-red-700 px-4 py-2 text-sm font-medium text-white hover:bg-red-800 focus:outline-none focus:ring-2 focus:ring-red-300 disabled:opacity-50';

const STATUS_NOTE: Record<string, string | null> = {
  active: null,
  inactive: 'Not shared: waiting for your answer under Pending questions',
  archived: 'Archived: no agent gets it',
};

interface MemoryItem {
  id: string;
  content: string;
  category: string;
  status: string;
  written_by: { id: string; name: string } | null;
  created_at: string;
}

function ExportButton() {
  const trpc = useTRPC();
  const [done, setDone] = useState<string | null>(null);
  const exportPassport = useMutation(
    trpc.passport.exportPassport.mutationOptions({
      onSuccess: (bundle) => {
        const url = URL.createObjectURL(new Blob([JSON.stringify(bundle, null, 2)], { type: 'application/json' }));
        const link = document.createElement('a');
        link.href = url;
        link.download = 'memory-passport-export.json';
        document.body.append(link);
        link.click();
        link.remove();
        URL.revokeObjectURL(url);
        setDone(`Downloaded memory-passport-export.json (${bundle.memories.length} memories).`);
      },
    }),
  );
  return (
    <div className="mb-4">
      <button type="button" className={secondaryButtonClass} onClick={() => exportPassport.mutate()} disabled={exportPassport.isPending}>
        Download all my data (JSON)
      </button>
      <p className="mt-1 text-xs text-slate-600">Memories, who wrote them, your agents' access and the access log.</p>
      <Done text={done} />
      <ErrorNote error={exportPassport.error ? errorMessage(exportPassport.error) : null} />
    </div>
  );
}

function MemoryRow({ memory, onDeleted }: { memory: MemoryItem; onDeleted: (text: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation(
    trpc.passport.deleteMemory.mutationOptions({
      onSuccess: () => {
        onDeleted(`Deleted: ${memory.content}`);
        void queryClient.invalidateQueries({ queryKey: trpc.passport.memories.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.passport.questions.pathKey() });
      },
    }),
  );
  const note = STATUS_NOTE[memory.status];
  return (
    <li className="flex flex-col gap-2 p-4 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0">
        <p className="break-words">{memory.content}</p>
        <p className="text-sm text-slate-600">
          {memory.written_by ? `Saved by ${memory.written_by.name}` : 'Saved by an unknown agent'} · {when(memory.created_at)}
        </p>
        {note && <p className="text-xs font-medium text-amber-800">{note}</p>}
      </div>
      {confirming ? (
        <div role="group" aria-label="Confirm deletion" className="flex shrink-0 flex-wrap gap-2">
          <button type="button" className={dangerButtonClass} disabled={remove.isPending} onClick={() => remove.mutate({ memoryId: memory.id })}>
            Yes, delete
          </button>
          <button type="button" className={secondaryButtonClass} onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      ) : (
        <button type="button" className={`${secondaryButtonClass} shrink-0`} aria-label={`Delete: ${memory.content}`} onClick={() => setConfirming(true)}>
          Delete
        </button>
      )}
      <ErrorNote error={remove.error ? errorMessage(remove.error) : null} />
    </li>
  );
}

export function YourMemories() {
  const trpc = useTRPC();
  // agents write outside this page: fresh on every visit to the tab
  const memories = useInfiniteQuery(
    trpc.passport.memories.infiniteQueryOptions({}, { getNextPageParam: (last) => last.next_cursor ?? undefined, refetchOnMount: 'always' }),
  );
  const [done, setDone] = useState<string | null>(null);
  const items = memories.data?.pages.flatMap((p) => p.items) ?? [];
  const groups = MEMORY_CATEGORIES.map((c) => ({ category: c, items: items.filter((m) => m.category === c) })).filter((g) => g.items.length > 0);
  return (
    <>
      <p className="mb-4 text-sm text-slate-600">
        What agents saved to your passport, by category. An agent reads only the categories you allowed it; deleting a memory erases it for every
        agent at once.
      </p>
      <ExportButton />
      <Done text={done} />
      {memories.isPending ? (
        <Loading />
      ) : memories.error ? (
        <ErrorNote error={errorMessage(memories.error)} />
      ) : groups.length === 0 ? (
        <p className="text-sm text-slate-600">No memories yet.</p>
      ) : (
        <div className="space-y-5">
          {groups.map((g) => (
            <section key={g.category} aria-labelledby={`memories-${g.category}`}>
              <h3 id={`memories-${g.category}`} className="mb-2 font-semibold">
                {categoryLabel(g.category)} <span className="font-normal text-slate-600">({g.items.length})</span>
              </h3>
              <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
                {g.items.map((m) => (
                  <MemoryRow key={m.id} memory={m} onDeleted={setDone} />
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
      <NextPageButton query={memories} />
    </>
  );
}
