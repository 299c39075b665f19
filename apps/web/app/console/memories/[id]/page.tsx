'use client';
/**
 * One memory: what it says, its status and scores, where it came from (links to its source event and user), its
 * ledger history, and the changes an admin can make (edit, archive, delete permanently). Erasing the user is on the Users page.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from 'next/navigation';
import { IdLink, JobState, ShortId, UserLink, sourceEventHref } from '../../_lib/links';
import { MemoryHistory } from '../../_lib/memory-history';
import { ConsoleShell } from '../../_lib/shell';
import { errorMessage, useTRPC } from '../../_lib/trpc';
import { ErrorNote, Field, Loading, secondaryButtonClass, when } from '../../_lib/ui';
import { EditMemory } from './edit-memory';
import { PurgeMemory } from './purge-memory';

type Provenance = { service?: string; event_id?: string; writer_id?: string; job_id?: string; evidence?: { source_type: string; reference: string }[] };

function Archive({ memoryId, status }: { memoryId: string; status: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const archive = useMutation(
    trpc.memories.archive.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.memories.pathKey() }),
    }),
  );
  if (status === 'archived') {
    return <p className="text-sm text-slate-700">Archived: retrieval no longer returns it. The ledger keeps its history.</p>;
  }
  return (
    <div>
      <p className="text-sm text-slate-700">Archiving takes the memory out of retrieval at once; its history stays in the ledger.</p>
      <button
        type="button"
        className={`${secondaryButtonClass} mt-2`}
        disabled={archive.isPending}
        onClick={() => {
          if (window.confirm('Archive this memory? Retrieval stops returning it at once.')) archive.mutate({ memory_id: memoryId });
        }}
      >
        Archive memory
      </button>
      <ErrorNote error={archive.error ? errorMessage(archive.error) : null} />
    </div>
  );
}

function Memory({ id }: { id: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.memories.get.queryOptions({ memory_id: id }));
  if (q.isPending) return <Loading />;
  if (q.error) return <ErrorNote error={errorMessage(q.error)} />;
  const m = q.data;
  const p = (m.provenance ?? {}) as Provenance;
  return (
    <div className="space-y-4">
      <section aria-labelledby="memory-heading" className="rounded border border-slate-200 bg-white p-4">
        <h2 id="memory-heading" className="break-words text-lg font-semibold">
          “{m.content}”
        </h2>
        <dl className="mt-2">
          <Field label="User" value={<UserLink externalUserId={m.external_user_id} />} />
          <Field label="Status" value={m.status} />
          <Field label="Category" value={m.category} />
          <Field label="Confidence" value={m.confidence.toFixed(2)} />
          <Field label="Importance" value={m.importance_score.toFixed(2)} />
          <Field label="Created" value={when(m.created_at)} />
          <Field label="Updated" value={when(m.updated_at)} />
          <Field label="Retrieved" value={`${m.access_count} time${m.access_count === 1 ? '' : 's'}${m.last_accessed ? `, last ${when(m.last_accessed)}` : ''}`} />
        </dl>
      </section>
      <section aria-labelledby="source-heading" className="rounded border border-slate-200 bg-white p-4">
        <h2 id="source-heading" className="font-semibold">
          Where it came from
        </h2>
        <dl className="mt-2">
          <Field
            label="Source event"
            value={m.source_event_id ? <IdLink kind="Source event" id={m.source_event_id} href={sourceEventHref(m.source_event_id)} /> : null}
          />
          <Field label="Service" value={p.service ? `${p.service} / ${p.event_id ?? ''}` : null} />
          <Field label="Job" value={p.job_id ? <JobState id={p.job_id} /> : null} />
          <Field label="Writer" value={p.writer_id ? <ShortId kind="Writer" id={p.writer_id} /> : null} />
          <Field label="Agent" value={m.agent_id} />
          <Field label="Evidence" value={p.evidence?.length ? p.evidence.map((x) => `${x.source_type}: ${x.reference}`).join(', ') : null} />
        </dl>
      </section>
      <section aria-labelledby="changes-heading" className="rounded border border-slate-200 bg-white p-4">
        <h2 id="changes-heading" className="mb-2 font-semibold">
          Changes
        </h2>
        <EditMemory key={m.updated_at} memory={m} />
        <hr className="my-4 border-slate-200" />
        <Archive memoryId={m.id} status={m.status} />
        <hr className="my-4 border-slate-200" />
        <PurgeMemory memoryId={m.id} externalUserId={m.external_user_id} />
      </section>
      <section aria-labelledby="history-heading" className="rounded border border-slate-200 bg-white p-4">
        <h2 id="history-heading" className="font-semibold">
          Ledger history
        </h2>
        <MemoryHistory memoryId={m.id} />
      </section>
    </div>
  );
}

export default function MemoryPage() {
  const { id } = useParams<{ id: string }>();
  return (
    <ConsoleShell title="Memory">
      <Memory id={id} />
    </ConsoleShell>
  );
}
