'use client';
/**
 * "Erase user…" on the Users page: a modal dialog that enables the erase button only once the external user id is
 * typed exactly, then calls `users.erase` (the erasure of DELETE /v1/users/{id}, docs/erasure.md, audited as the
 * admin) and shows the receipt: its id, when, the counts per kind and the listing's SHA-256, with a copy button
 * for the whole receipt (the listing in `erased` is what the SHA-256 verifies).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { errorMessage, useTRPC } from '../_lib/trpc';
import { CopyButton, ErrorNote, Field, buttonClass, inputClass, secondaryButtonClass, when } from '../_lib/ui';

const dangerButtonClass = buttonClass.replace('bg-blue-700', 'bg-red-700').replace('hover:bg-blue-800', 'hover:bg-red-800');

/** The row's button; the dialog is rendered by the page, outside the table, so it outlives the erased user's row. */
export function EraseUserButton({ externalUserId, onClick }: { externalUserId: string; onClick: () => void }) {
  return (
    <button type="button" className={`${secondaryButtonClass} px-2 py-1 text-xs`} aria-label={`Erase user ${externalUserId}…`} onClick={onClick}>
      Erase user…
    </button>
  );
}

export function EraseUserDialog({ externalUserId, onClose }: { externalUserId: string; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const ids = useId();
  const ref = useRef<HTMLDialogElement>(null);
  const [typed, setTyped] = useState('');
  const erase = useMutation(trpc.users.erase.mutationOptions({ onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.users.pathKey() }) }));
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  const matches = typed === externalUserId;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (matches) erase.mutate({ external_user_id: externalUserId });
  };
  const receipt = erase.data;
  return (
    <dialog
      ref={ref}
      aria-labelledby={`${ids}-title`}
      onClose={onClose}
      className="m-auto w-[min(36rem,calc(100vw-2rem))] rounded border border-slate-300 bg-white p-4 text-slate-900 shadow-lg backdrop:bg-slate-900/40"
    >
      <h2 id={`${ids}-title`} className="text-lg font-semibold">
        Erase user
      </h2>
      {receipt ? (
        <div role="status" aria-label="Erasure receipt" className="mt-2">
          <p className="text-sm">
            {receipt.already_erased ? 'This user was erased before; this is the earlier receipt.' : 'Everything held about this user is erased.'} Keep the
            receipt: it holds counts and hashes only.
          </p>
          <dl className="mt-2">
            <Field label="Receipt" value={receipt.receipt_id} />
            <Field label="Erased at" value={when(receipt.erased_at)} />
            <Field
              label="Counts"
              value={
                <ul>
                  {Object.entries(receipt.counts).map(([kind, n]) => (
                    <li key={kind}>
                      {kind}: {n}
                    </li>
                  ))}
                </ul>
              }
            />
            <Field label="SHA-256" value={receipt.sha256} />
          </dl>
          <div className="mt-3 flex flex-wrap gap-2">
            <CopyButton value={JSON.stringify(receipt, null, 2)} text="Copy receipt" />
            <button type="button" className={secondaryButtonClass} onClick={() => ref.current?.close()}>
              Close
            </button>
          </div>
        </div>
      ) : (
        <form onSubmit={submit} className="mt-2 space-y-3">
          <p className="text-sm">
            This erases every memory, source event, review and record held about <span className="break-all font-mono">{externalUserId}</span> at once. It
            cannot be undone.
          </p>
          <label className="block text-sm font-medium" htmlFor={`${ids}-confirm`}>
            Type the external user id to confirm
          </label>
          <input
            id={`${ids}-confirm`}
            className={`${inputClass} font-mono`}
            autoComplete="off"
            spellCheck={false}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
          />
          <div className="flex flex-wrap gap-2">
            <button type="submit" className={dangerButtonClass} disabled={!matches || erase.isPending}>
              Erase this user
            </button>
            <button type="button" className={secondaryButtonClass} onClick={() => ref.current?.close()}>
              Cancel
            </button>
          </div>
          <ErrorNote error={erase.error ? errorMessage(erase.error) : null} />
        </form>
      )}
    </dialog>
  );
}
