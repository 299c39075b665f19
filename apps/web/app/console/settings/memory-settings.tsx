'use client';
/**
 * Memory settings: how long raw source payloads are kept (payload_retention_days) and review before write
 * (docs/review-before-write.md), the same settings and checks as PATCH /v1/tenant/settings.
 */
import { MEMORY_CATEGORIES, type MemoryCategory } from '@memory/core/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { errorMessage, useTRPC } from '../_lib/trpc';
import { ErrorNote, Loading, buttonClass, inputClass } from '../_lib/ui';

interface Form {
  keepForever: boolean;
  days: string;
  review: boolean;
  categories: MemoryCategory[];
  belowAuthority: string;
}

export function MemorySettings() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const current = useQuery(trpc.tenantSettings.get.queryOptions());
  const [form, setForm] = useState<Form | null>(null);
  const [saved, setSaved] = useState(false);
  // the form starts from the stored settings, and again after each save
  useEffect(() => {
    if (!current.data) return;
    const { settings, bounds } = current.data;
    const rbw = settings.review_before_write;
    setForm({
      keepForever: settings.payload_retention_days === null,
      days: String(settings.payload_retention_days ?? bounds.payload_retention_days.default),
      review: rbw !== null,
      categories: rbw?.categories ?? [],
      belowAuthority: rbw?.below_authority == null ? '' : String(rbw.below_authority),
    });
  }, [current.data]);
  const update = useMutation(
    trpc.tenantSettings.update.mutationOptions({
      onSuccess: () => {
        setSaved(true);
        void queryClient.invalidateQueries({ queryKey: trpc.tenantSettings.get.queryKey() });
      },
    }),
  );

  if (current.isPending) return <Loading />;
  if (current.error) return <ErrorNote error={errorMessage(current.error)} />;
  if (!form) return <Loading />;
  const { bounds } = current.data;
  const change = (patch: Partial<Form>) => {
    setSaved(false);
    setForm({ ...form, ...patch });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    update.mutate({
      payload_retention_days: form.keepForever ? null : Number(form.days),
      // the server answers which part is missing when review is on with neither a category nor an authority
      review_before_write: form.review
        ? { categories: form.categories, below_authority: form.belowAuthority.trim() === '' ? null : Number(form.belowAuthority) }
        : null,
    });
  };

  return (
    <section aria-labelledby="memory-settings-heading" className="rounded border border-slate-200 bg-white p-4">
      <h2 id="memory-settings-heading" className="text-lg font-semibold">
        Memory settings
      </h2>
      <form onSubmit={submit} className="mt-3 space-y-4" aria-labelledby="memory-settings-heading">
        <fieldset>
          <legend className="text-sm font-medium">Raw conversation payloads</legend>
          <p className="text-xs text-slate-600">
            Older payloads are redacted by the hourly retention run; their hash and the memories stay, the conversation passages leave retrieval.
          </p>
          <label className="mt-2 flex items-center gap-2 text-sm">
            <input type="checkbox" checked={form.keepForever} onChange={(e) => change({ keepForever: e.target.checked })} />
            Keep payloads forever
          </label>
          {!form.keepForever && (
            <label className="mt-2 block text-sm font-medium">
              Keep payloads for (days, {bounds.payload_retention_days.min}–{bounds.payload_retention_days.max})
              <input
                className={inputClass}
                type="number"
                required
                min={bounds.payload_retention_days.min}
                max={bounds.payload_retention_days.max}
                value={form.days}
                onChange={(e) => change({ days: e.target.value })}
              />
            </label>
          )}
        </fieldset>
        <fieldset>
          <legend className="text-sm font-medium">Review before write</legend>
          <p className="text-xs text-slate-600">
            Held memories wait as pending on the Reviews page until an admin approves, edits or rejects them.
          </p>
          <label className="mt-2 flex items-center gap-2 text-sm">
            <input type="checkbox" checked={form.review} onChange={(e) => change({ review: e.target.checked })} />
            Hold new memories for review
          </label>
          {form.review && (
            <div className="mt-2 space-y-2">
              <fieldset>
                <legend className="text-xs font-medium">Always hold these categories</legend>
                <div className="mt-1 grid grid-cols-2 gap-1 sm:grid-cols-4">
                  {MEMORY_CATEGORIES.map((c) => (
                    <label key={c} className="flex items-center gap-2 text-xs">
                      <input
                        type="checkbox"
                        checked={form.categories.includes(c)}
                        onChange={(e) =>
                          change({ categories: e.target.checked ? [...form.categories, c] : form.categories.filter((x) => x !== c) })
                        }
                      />
                      {c}
                    </label>
                  ))}
                </div>
              </fieldset>
              <label className="block text-sm font-medium">
                Also hold memories from writers with authority below ({bounds.below_authority.min}–{bounds.below_authority.max}; empty: no
                authority rule; adds without a source block have authority 0)
                <input
                  className={inputClass}
                  type="number"
                  min={bounds.below_authority.min}
                  max={bounds.below_authority.max}
                  value={form.belowAuthority}
                  onChange={(e) => change({ belowAuthority: e.target.value })}
                />
              </label>
            </div>
          )}
        </fieldset>
        <button type="submit" className={buttonClass} disabled={update.isPending}>
          Save memory settings
        </button>
        {saved && !update.isPending && (
          <p role="status" className="text-sm text-green-700">
            Saved.
          </p>
        )}
        <ErrorNote error={update.error ? errorMessage(update.error) : null} />
      </form>
    </section>
  );
}
