'use client';
/**
 * A memory held for review before write (docs/review-before-write.md): the held memory with its provenance and an
 * editable content, beside the user's memories it may conflict with and the text it came from; approve (as
 * written or edited) or reject it.
 */
import type { AppRouter } from '@memory/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useState } from 'react';
import { errorMessage, useTRPC } from '../../_lib/trpc';
import { ErrorNote, Field, Loading, buttonClass, inputClass, secondaryButtonClass, when } from '../../_lib/ui';

type Review = inferRouterOutputs<AppRouter>['reviews']['get'];
type Context = inferRouterOutputs<AppRouter>['reviews']['context'];

const DECIDED: Record<string, string> = {
  approved: 'Approved: the memory is written.',
  edited: 'Edited and approved: the memory is written with the new content.',
  rejected: 'Rejected: the memory is discarded (kept in the ledger).',
};

function RelatedMemories({ related }: { related: Context['related'] }) {
  return (
    <section aria-labelledby="related-heading" className="rounded border border-slate-200 bg-white p-4">
      <h2 id="related-heading" className="text-sm font-semibold text-slate-700">
        Memories it may conflict with
      </h2>
      {related.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No active memory of this user about the same thing.</p>
      ) : (
        <ul aria-label="Related memories" className="mt-2 divide-y divide-slate-100">
          {related.map((m) => (
            <li key={m.id} className="py-2">
              <p>{m.content}</p>
              <p className="text-xs text-slate-600">
                {m.category} · {m.provenance?.service ?? 'default'} · observed {when(m.provenance?.observed_at)}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function SourceText({ source }: { source: Context['source'] }) {
  return (
    <section aria-labelledby="source-heading" className="rounded border border-slate-200 bg-white p-4">
      <h2 id="source-heading" className="text-sm font-semibold text-slate-700">
        Source text
      </h2>
      {source.state === 'none' && <p className="mt-2 text-sm text-slate-600">This memory has no source event.</p>}
      {source.state === 'redacted' && (
        <p className="mt-2 text-sm text-slate-600">
          Redacted {when(source.redacted_at)}
          {source.retention_days !== null ? ` after ${source.retention_days} days` : ''} by the payload retention setting; the payload hash is kept.
        </p>
      )}
      {source.state === 'available' && (
        <ol aria-label="Source messages" className="mt-2 space-y-1 text-sm">
          {source.messages.map((msg, i) => (
            <li key={i} className={msg.cited ? 'rounded bg-amber-50 px-2 py-1 ring-1 ring-amber-300' : 'px-2 py-1'}>
              <span className="font-medium text-slate-700">{msg.name ?? msg.role}: </span>
              {msg.content}
              {msg.cited && <span className="ml-2 text-xs text-amber-900">(extracted from this message)</span>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** Decides review `id`; the page shows the decided review at once and the lists refresh. */
export function useResolveReview(id: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.reviews.resolve.mutationOptions({
      onSuccess: (resolved) => {
        queryClient.setQueryData(trpc.reviews.get.queryKey({ id }), resolved);
        void queryClient.invalidateQueries({ queryKey: trpc.reviews.list.pathKey() });
      },
    }),
  );
}

export function HeldMemory({ id, review }: { id: string; review: Review }) {
  const trpc = useTRPC();
  const held = review.claims[0];
  const [content, setContent] = useState(held?.content ?? '');
  const [note, setNote] = useState('');
  const context = useQuery(trpc.reviews.context.queryOptions({ id }));
  const resolve = useResolveReview(id);
  if (!held) return <ErrorNote error="The held memory is gone (erased with its user)." />;
  const p = held.provenance;
  const open = review.status === 'open';
  const edited = content.trim() !== held.content;
  const decide = (action: 'approve' | 'reject') =>
    resolve.mutate({ id, action, ...(action === 'approve' && edited ? { content: content.trim() } : {}), ...(note.trim() ? { note: note.trim() } : {}) });
  return (
    <>
      {!open && review.decision && (
        <div role="status" className="mt-3 rounded border border-emerald-300 bg-emerald-50 p-3 text-sm">
          <p className="font-medium">{DECIDED[review.decision] ?? review.decision}</p>
          {review.decision !== 'rejected' && <p>Written: “{held.content}” (status {held.status})</p>}
          <p className="text-slate-600">
            By {review.resolved_by}, {when(review.resolved_at)}
          </p>
          {review.resolution_note && <p>Note: {review.resolution_note}</p>}
        </div>
      )}
      <div className="mt-4 grid gap-4 md:grid-cols-2">
        <article aria-label="Held memory" className="rounded border border-amber-400 bg-white p-4">
          <h2 className="text-sm font-semibold text-slate-500">
            Held memory <span className="ml-2 rounded bg-amber-100 px-2 py-0.5 text-xs text-amber-900">{held.status}</span>
          </h2>
          {open ? (
            <label className="mt-2 block text-sm font-medium">
              Content
              <textarea className={inputClass} rows={3} maxLength={2000} value={content} onChange={(e) => setContent(e.target.value)} />
            </label>
          ) : (
            <p className="mt-2 text-lg">{held.content}</p>
          )}
          <dl className="mt-3">
            <Field label="Category" value={held.category} />
            <Field label="Confidence" value={held.confidence.toFixed(2)} />
            <Field label="Service" value={p?.service} />
            <Field label="Event id" value={p?.event_id} />
            <Field label="Observed" value={when(p?.observed_at)} />
            <Field label="Writer" value={p?.writer_id} />
          </dl>
          {open && (
            <>
              <label className="mt-3 block text-sm font-medium">
                Note (optional)
                <textarea className={inputClass} rows={2} maxLength={1000} value={note} onChange={(e) => setNote(e.target.value)} />
              </label>
              <div className="mt-3 flex flex-wrap gap-2">
                <button type="button" className={buttonClass} onClick={() => decide('approve')} disabled={resolve.isPending || content.trim() === ''}>
                  {edited ? 'Save edit and approve' : 'Approve'}
                </button>
                <button type="button" className={secondaryButtonClass} onClick={() => decide('reject')} disabled={resolve.isPending}>
                  Reject
                </button>
              </div>
            </>
          )}
        </article>
        <div className="space-y-4">
          {context.isPending ? (
            <Loading />
          ) : context.error ? (
            <ErrorNote error={errorMessage(context.error)} />
          ) : (
            <>
              <RelatedMemories related={context.data.related} />
              <SourceText source={context.data.source} />
            </>
          )}
        </div>
      </div>
      <ErrorNote error={resolve.error ? errorMessage(resolve.error) : null} />
    </>
  );
}
