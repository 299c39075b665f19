'use client';
/**
 * "Delete permanently…": removes one memory and every copy of its content (memories.purge). A confirm step asks
 * for the word "delete" typed out; afterwards the console shows the user's memories with a status message.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { userMemoriesHref } from '../../_lib/links';
import { errorMessage, useTRPC } from '../../_lib/trpc';
import { ErrorNote, inputClass, secondaryButtonClass } from '../../_lib/ui';

export function PurgeMemory({ memoryId, externalUserId }: { memoryId: string; externalUserId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [confirming, setConfirming] = useState(false);
  const [typed, setTyped] = useState('');
  const purge = useMutation(
    trpc.memories.purge.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.memories.pathKey() });
        router.push(`${userMemoriesHref(externalUserId)}&deleted=1`);
      },
    }),
  );
  return (
    <div>
      <p className="text-sm text-slate-700">
        Deleting permanently removes the memory, its ledger history and the reviews naming it. It cannot be undone. What the user said (the
        source event) stays.
      </p>
      {confirming ? (
        <form
          className="mt-2 flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (typed.trim().toLowerCase() === 'delete') purge.mutate({ memory_id: memoryId });
          }}
        >
          <label className="block text-sm font-medium">
            Type “delete” to confirm
            <input className={inputClass} value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" />
          </label>
          <button type="submit" className={secondaryButtonClass} disabled={purge.isPending || typed.trim().toLowerCase() !== 'delete'}>
            Delete this memory permanently
          </button>
          <button type="button" className={secondaryButtonClass} onClick={() => (setConfirming(false), setTyped(''))}>
            Cancel
          </button>
        </form>
      ) : (
        <button type="button" className={`${secondaryButtonClass} mt-2`} onClick={() => setConfirming(true)}>
          Delete permanently…
        </button>
      )}
      <ErrorNote error={purge.error ? errorMessage(purge.error) : null} />
    </div>
  );
}
