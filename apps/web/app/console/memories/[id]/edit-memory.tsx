'use client';
/**
 * The memory page's edit form: content, category and importance, saved through `memories.edit` (the same edit as
 * PATCH /v1/memories/{id}: a new `edited` revision in the ledger, naming the admin). Only active memories can be
 * edited; the server's field errors (422) are shown as they come.
 */
import { MEMORY_CATEGORIES } from '@memory/core/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { errorMessage, useTRPC } from '../../_lib/trpc';
import { ErrorNote, buttonClass, inputClass } from '../../_lib/ui';

interface Editable {
  id: string;
  content: string;
  category: string;
  importance_score: number;
  status: string;
}

export function EditMemory({ memory }: { memory: Editable }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const ids = useId();
  const [content, setContent] = useState(memory.content);
  const [category, setCategory] = useState(memory.category);
  const [importance, setImportance] = useState(String(memory.importance_score));
  const [saved, setSaved] = useState(false);
  const edit = useMutation(
    trpc.memories.edit.mutationOptions({
      onSuccess: () => {
        setSaved(true);
        void queryClient.invalidateQueries({ queryKey: trpc.memories.pathKey() });
      },
    }),
  );
  if (memory.status !== 'active') {
    return <p className="text-sm text-slate-700">Only active memories can be edited; this one is {memory.status}.</p>;
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    // an empty importance field is left out; anything else goes to the server, which names what is wrong
    edit.mutate({ memory_id: memory.id, content, category, ...(importance.trim() === '' ? {} : { importance: Number(importance) }) });
  };
  return (
    // noValidate: the server's checks (the API's own) decide, and their messages are shown below
    <form onSubmit={submit} noValidate aria-label="Edit memory" className="space-y-3">
      <label className="block text-sm font-medium" htmlFor={`${ids}-content`}>
        Content
      </label>
      <textarea id={`${ids}-content`} className={inputClass} rows={3} value={content} onChange={(e) => setContent(e.target.value)} />
      <div className="flex flex-wrap gap-3">
        <label className="block text-sm font-medium">
          Category
          <select className={inputClass} value={category} onChange={(e) => setCategory(e.target.value)}>
            {MEMORY_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        <label className="block text-sm font-medium">
          Importance (0–1)
          <input className={inputClass} type="number" min={0} max={1} step={0.05} value={importance} onChange={(e) => setImportance(e.target.value)} />
        </label>
      </div>
      <button type="submit" className={buttonClass} disabled={edit.isPending}>
        Save changes
      </button>
      <span role="status" className="ml-3 text-sm text-emerald-800">
        {saved && !edit.isPending ? 'Saved: the ledger history shows the edit.' : ''}
      </span>
      <ErrorNote error={edit.error ? errorMessage(edit.error) : null} />
    </form>
  );
}
