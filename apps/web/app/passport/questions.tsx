'use client';
/**
 * Pending questions: two agents (or one, at two times) wrote conflicting memories to the passport. While a
 * question is open neither memory is given to any agent; the user picks the one that is true, the other is archived.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage, useTRPC } from '../console/_lib/trpc';
import { ErrorNote, Loading, secondaryButtonClass, when } from '../console/_lib/ui';

export function PendingQuestions() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const questions = useQuery(trpc.passport.questions.queryOptions());
  const [done, setDone] = useState<string | null>(null);
  const answer = useMutation(
    trpc.passport.answerQuestion.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.passport.questions.queryKey() }),
    }),
  );

  return (
    <>
      <p className="mb-4 text-sm text-slate-600">
        When agents saved memories that contradict each other, no agent gets either until you say which one is true.
      </p>
      {done && (
        <p role="status" className="mb-3 rounded border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          {done}
        </p>
      )}
      {questions.isPending ? (
        <Loading />
      ) : questions.error ? (
        <ErrorNote error={errorMessage(questions.error)} />
      ) : questions.data.length === 0 ? (
        <p className="text-sm text-slate-600">No pending questions.</p>
      ) : (
        <ul className="space-y-3">
          {questions.data.map((q) => (
            <li key={q.id}>
              <fieldset className="rounded-lg border border-slate-200 bg-white p-4">
                <legend className="px-1 font-semibold">{q.question}</legend>
                <p className="text-xs text-slate-500">Asked {when(q.created_at)}</p>
                <div className="mt-3 flex flex-col gap-2">
                  {q.options.map((o) => (
                    <button
                      key={o.memory_id}
                      type="button"
                      className={`${secondaryButtonClass} justify-start text-left`}
                      disabled={answer.isPending}
                      onClick={() =>
                        answer.mutate({ reviewId: q.id, keepMemoryId: o.memory_id }, { onSuccess: () => setDone(`Kept: ${o.content}`) })
                      }
                    >
                      {o.content}
                    </button>
                  ))}
                </div>
              </fieldset>
            </li>
          ))}
        </ul>
      )}
      <ErrorNote error={answer.error ? errorMessage(answer.error) : null} />
    </>
  );
}
