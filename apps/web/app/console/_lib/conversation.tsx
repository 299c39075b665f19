'use client';
/**
 * What was said in a source event: its messages (secrets were redacted at ingestion), or when and after how many
 * days the tenant's retention window removed them. The source event page and the conflict review's claims show it.
 */
import { useQuery } from '@tanstack/react-query';
import { errorMessage, useTRPC } from './trpc';
import { ErrorNote, Loading, when } from './ui';

const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;

type Detail = {
  messages: { role: string; name?: string; content: string }[] | null;
  metadata: Record<string, unknown> | null;
  payload_redacted_at: string | null;
  redacted_after_days: number | null;
};

export function Conversation({ e }: { e: Detail }) {
  if (e.payload_redacted_at !== null) {
    return (
      <p className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
        Redacted after {days(e.redacted_after_days ?? 0)} ({when(e.payload_redacted_at)}) by the tenant’s retention window. The payload hash
        below still proves what was received.
      </p>
    );
  }
  if (!e.messages) return <p className="text-sm text-slate-600">No conversation was stored with this event.</p>;
  return (
    <>
      <ol className="space-y-2" aria-label="Messages">
        {e.messages.map((m, i) => (
          <li key={i} className={`rounded border p-2 text-sm ${m.role === 'user' ? 'border-blue-200 bg-blue-50' : 'border-slate-200 bg-slate-50'}`}>
            <div className="text-xs font-medium text-slate-700">
              {m.name ? `${m.name} (${m.role})` : m.role}
            </div>
            <p className="whitespace-pre-wrap break-words">{m.content}</p>
          </li>
        ))}
      </ol>
      {e.metadata && Object.keys(e.metadata).length > 0 ? (
        <details className="mt-2 text-sm">
          <summary className="cursor-pointer text-slate-700">Metadata</summary>
          <pre className="mt-1 overflow-x-auto rounded bg-slate-50 p-2 text-xs">{JSON.stringify(e.metadata, null, 2)}</pre>
        </details>
      ) : null}
    </>
  );
}

/** The conversation of source event `id`, fetched (a claim card of a conflict review). */
export function SourceConversation({ id, label }: { id: string; label: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.sourceEvents.get.queryOptions({ id }));
  return (
    <section aria-label={label} className="mt-3">
      <h3 className="text-sm font-semibold text-slate-700">What was said</h3>
      <div className="mt-1">{q.isPending ? <Loading /> : q.error ? <ErrorNote error={errorMessage(q.error)} /> : <Conversation e={q.data} />}</div>
    </section>
  );
}
