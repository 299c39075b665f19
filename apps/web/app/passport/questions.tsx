'use client';
/**
 * Pending questions: two agents (or one, at two times) wrote conflicting memories to the passport. While a
 * question is open neither memory is given to any agent; the user picks the one that is true, the other is archived.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage, useTRPC } from '../console/_lib/trpc';
import { ErrorNote, secondaryButtonClass, when } from '../console/_lib/ui';
import { Done, ListState, useRefresh } from './_lib/client';

export function PendingQuestions() {
  const trpc = useTRPC();
  const questions = useQuery(trpc.passport.questions.queryOptions());
  const [done, setDone] = useState<string | null>(null);
  const answer = useMutation(trpc.passport.answerQuestion.mutationOptions({ onSuccess: useRefresh(trpc.passport.questions.queryKey()) }));

  return (
    <>
      <p className="mb-4 text-sm text-slate-600">
        When agents saved memories that contradict each other, no agent gets either until you say which one is true.
      </p>
      <Done text={done} />
      <ListState query={questions} empty="No pending questions.">
        {(items) => (
          <ul className="space-y-3">
            {items.map((q) => (
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
      </ListState>
      <ErrorNote error={answer.error ? errorMessage(answer.error) : null} />
    </>
  );
}
