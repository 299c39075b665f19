'use client';
/** The tenant's domain schema (docs/domain-schemas.md) with a switch; shown on the Students, Customers and Support pages. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { errorMessage, useTRPC } from './trpc';
import { ErrorNote, Loading, buttonClass, inputClass } from './ui';

export function DomainSchema() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const q = useQuery(trpc.domains.get.queryOptions());
  const [choice, setChoice] = useState<string | null>(null);
  const set = useMutation(
    trpc.domains.set.mutationOptions({
      onSuccess: (data) => {
        queryClient.setQueryData(trpc.domains.get.queryKey(), data);
        // every domain view depends on the schema
        void queryClient.invalidateQueries({ queryKey: trpc.domains.pathKey() });
      },
    }),
  );
  if (q.isPending) return <Loading />;
  if (q.error) return <ErrorNote error={errorMessage(q.error)} />;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    set.mutate({ domain_schema: choice ?? q.data.domain_schema });
  };
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-2">
      <label className="block text-sm font-medium">
        Domain schema
        <select className={inputClass} value={choice ?? q.data.domain_schema} onChange={(e) => setChoice(e.target.value)}>
          {q.data.catalogue.map((c) => (
            <option key={c.id} value={c.id} disabled={c.status !== 'available'}>
              {c.name}
              {c.status !== 'available' ? ` (${c.status})` : ''}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className={buttonClass} disabled={set.isPending}>
        Save schema
      </button>
      <p className="text-sm text-slate-600" role="status">
        Active: <strong>{q.data.catalogue.find((c) => c.active)?.name}</strong>
      </p>
      <ErrorNote error={set.error ? errorMessage(set.error) : null} />
    </form>
  );
}

