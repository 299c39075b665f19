'use client';
/**
 * One source event: what was said (the stored conversation, secrets already redacted at ingestion) or, once the
 * tenant's retention window removed it, when and after how many days; its provenance; the memories read from it.
 */
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'next/navigation';
import { IdLink, JobState, ShortId, UserLink, memoryHref } from '../../_lib/links';
import { ConsoleShell } from '../../_lib/shell';
import { errorMessage, useTRPC } from '../../_lib/trpc';
import { Conversation } from '../../_lib/conversation';
import { ErrorNote, Field, Loading, RedactionBadge, when } from '../../_lib/ui';

function SourceEvent({ id }: { id: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.sourceEvents.get.queryOptions({ id }));
  if (q.isPending) return <Loading />;
  if (q.error) return <ErrorNote error={errorMessage(q.error)} />;
  const e = q.data;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="min-w-0 break-all font-mono text-lg font-semibold">
          {e.service} / {e.event_id}
        </h2>
        <RedactionBadge redacted={e.payload_redacted} />
      </div>
      <section aria-labelledby="said-heading" className="rounded border border-slate-200 bg-white p-4">
        <h3 id="said-heading" className="mb-2 font-semibold">
          What was said
        </h3>
        <Conversation e={e} />
      </section>
      <section aria-labelledby="memories-heading" className="rounded border border-slate-200 bg-white p-4">
        <h3 id="memories-heading" className="mb-2 font-semibold">
          Memories read from it
        </h3>
        {e.memories.length === 0 ? (
          <p className="text-sm text-slate-600">None{e.job_status === 'queued' || e.job_status === 'running' ? ' yet: the job has not finished.' : '.'}</p>
        ) : (
          <ul className="space-y-1 text-sm">
            {e.memories.map((m) => (
              <li key={m.id}>
                <IdLink kind="Memory" id={m.id} href={memoryHref(m.id)} /> “{m.content}” <span className="text-slate-600">({m.category}, {m.status})</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="details-heading" className="rounded border border-slate-200 bg-white p-4">
        <h3 id="details-heading" className="mb-2 font-semibold">
          Details
        </h3>
        <dl>
          <Field label="User" value={<UserLink externalUserId={e.external_user_id} />} />
          <Field label="Observed" value={when(e.observed_at)} />
          <Field label="Received" value={when(e.received_at)} />
          <Field label="Payload hash" value={<span className="break-all">{e.payload_hash}</span>} />
          <Field label="Job" value={e.job_id ? <JobState id={e.job_id} status={e.job_status} /> : null} />
          <Field label="Writer" value={e.writer_id ? <ShortId kind="Writer" id={e.writer_id} /> : null} />
          <Field label="Agent" value={e.agent_id} />
          <Field label="Evidence" value={e.evidence.length ? e.evidence.map((x) => `${x.source_type}: ${x.reference}`).join(', ') : null} />
          <Field label="Scope" value={Object.keys(e.scope).length ? JSON.stringify(e.scope) : null} />
        </dl>
      </section>
    </div>
  );
}

export default function SourceEventPage() {
  const { id } = useParams<{ id: string }>();
  return (
    <ConsoleShell title="Source event">
      <SourceEvent id={id} />
    </ConsoleShell>
  );
}
