'use client';
/**
 * One review: a conflict shows both claims side by side with provenance (keep one of them, with an optional note);
 * a memory held before write shows it beside related memories and its source text (held-memory.tsx).
 */
import type { AppRouter } from '@memory/api';
import { useQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import Link from 'next/link';
import { useParams } from 'next/navigation';
import { useState } from 'react';
import { ConsoleShell } from '../../_lib/shell';
import { errorMessage, useTRPC } from '../../_lib/trpc';
import { ErrorNote, Field, Loading, buttonClass, inputClass, when } from '../../_lib/ui';
import { SourceConversation } from '../../_lib/conversation';
import { HeldMemory, useResolveReview } from './held-memory';

type Review = inferRouterOutputs<AppRouter>['reviews']['get'];
type Claim = Review['claims'][number];

function ClaimCard({ claim, label, review, onKeep, busy }: { claim: Claim; label: string; review: Review; onKeep: () => void; busy: boolean }) {
  const p = claim.provenance;
  const chosen = review.resolution_memory_id === claim.id;
  return (
    <article aria-label={label} className={`rounded border bg-white p-4 ${chosen ? 'border-emerald-500' : 'border-slate-200'}`}>
      <h2 className="text-sm font-semibold text-slate-500">
        {label}
        {chosen && <span className="ml-2 rounded bg-emerald-100 px-2 py-0.5 text-xs text-emerald-900">Kept</span>}
      </h2>
      <p className="mt-2 text-lg">{claim.content}</p>
      <dl className="mt-3">
        <Field label="Category" value={claim.category} />
        <Field label="Confidence" value={claim.confidence.toFixed(2)} />
        <Field label="Status" value={claim.status} />
        <Field label="Service" value={p?.service} />
        <Field label="Event id" value={p?.event_id} />
        <Field label="Observed" value={when(p?.observed_at)} />
        <Field label="Received" value={when(p?.received_at)} />
        <Field label="Payload hash" value={p?.payload_hash} />
        <Field label="Evidence" value={p?.evidence?.length ? p.evidence.map((e) => `${e.source_type}: ${e.reference}`).join(', ') : null} />
        <Field label="Writer" value={p?.writer_id} />
      </dl>
      {claim.source_event_id ? <SourceConversation id={claim.source_event_id} label={`What was said: ${label}`} /> : null}
      {review.status === 'open' && (
        <button type="button" className={`${buttonClass} mt-3 w-full sm:w-auto`} onClick={onKeep} disabled={busy}>
          Keep this claim
        </button>
      )}
    </article>
  );
}

function ReviewDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const [note, setNote] = useState('');
  const q = useQuery(trpc.reviews.get.queryOptions({ id }));
  const resolve = useResolveReview(id);
  if (q.isPending) return <Loading />;
  if (q.error) return <ErrorNote error={errorMessage(q.error)} />;
  const review = q.data;
  if (review.kind === 'pending_write') {
    return (
      <>
        <p className="text-lg">A new memory waits for approval before it is written.</p>
        <p className="mt-1 text-sm text-slate-600">
          User {review.external_user_id} · {review.subject} · held {when(review.created_at)}
        </p>
        <HeldMemory id={id} review={review} />
      </>
    );
  }
  const keep = (claimId: string) => resolve.mutate({ id, chosen_memory_id: claimId, ...(note.trim() ? { note: note.trim() } : {}) });
  return (
    <>
      <p className="text-lg">{review.question}</p>
      <p className="mt-1 text-sm text-slate-600">
        User {review.external_user_id} · subject {review.subject} · opened {when(review.created_at)}
      </p>
      {review.status === 'resolved' && (
        <div role="status" className="mt-3 rounded border border-emerald-300 bg-emerald-50 p-3 text-sm">
          <p className="font-medium">Resolved {when(review.resolved_at)}.</p>
          <p>
            Kept: “{review.claims.find((c) => c.id === review.resolution_memory_id)?.content ?? review.resolution_memory_id}” — the other claim is
            archived.
          </p>
          <p className="text-slate-600">By {review.resolved_by}</p>
          {review.resolution_note && <p>Note: {review.resolution_note}</p>}
        </div>
      )}
      {review.status === 'open' && (
        <label className="mt-4 block text-sm font-medium">
          Note (optional)
          <textarea className={inputClass} rows={2} maxLength={1000} value={note} onChange={(e) => setNote(e.target.value)} />
        </label>
      )}
      <div className="mt-4 grid gap-4 md:grid-cols-2">
        {review.claims.map((c, i) => (
          <ClaimCard key={c.id} claim={c} label={`Claim ${i === 0 ? 'A' : 'B'}`} review={review} busy={resolve.isPending} onKeep={() => keep(c.id)} />
        ))}
      </div>
      <ErrorNote error={resolve.error ? errorMessage(resolve.error) : null} />
    </>
  );
}

export default function ReviewPage() {
  const { id } = useParams<{ id: string }>();
  return (
    <ConsoleShell title="Review">
      <p className="mb-3 text-sm">
        <Link className="text-blue-700 underline" href="/console/reviews">
          ← All reviews
        </Link>
      </p>
      <ReviewDetail id={id} />
    </ConsoleShell>
  );
}
