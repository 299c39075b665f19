'use client';
/**
 * The tenant's domain schema (docs/domain-schemas.md) with a switch; shown on the Students, Customers and Support
 * pages. A page that needs a schema passes it as `requires`: while another one is active the switch says so once,
 * beside itself, and the page asks nothing of the server (useDomainEnabled), so no second message repeats it.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useRef, useState } from 'react';
import { errorMessage, useTRPC } from './trpc';
import { ErrorNote, Loading, buttonClass, inputClass } from './ui';

/** True when `id` is the tenant's active schema, undefined while that is not known yet. */
export function useDomainEnabled(id: string): boolean | undefined {
  const trpc = useTRPC();
  const q = useQuery(trpc.domains.get.queryOptions());
  return q.data ? q.data.domain_schema === id : undefined;
}

/** Renders `children` only while `schema` is active (the switch explains the rest). */
export function DomainGate({ schema, children }: { schema: string; children: ReactNode }) {
  return useDomainEnabled(schema) ? children : null;
}

export function DomainSchema({ requires }: { requires?: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const q = useQuery(trpc.domains.get.queryOptions());
  const [choice, setChoice] = useState<string | null>(null);
  const select = useRef<HTMLSelectElement>(null);
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
  const needed = requires && q.data.domain_schema !== requires ? q.data.catalogue.find((c) => c.id === requires) : undefined;
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-2">
      <label className="block text-sm font-medium">
        Domain schema
        <select
          ref={select}
          className={inputClass}
          value={choice ?? q.data.domain_schema}
          onChange={(e) => setChoice(e.target.value)}
          aria-describedby={needed ? 'domain-schema-needed' : undefined}
        >
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
      {needed && (
        <p id="domain-schema-needed" className="w-full rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
          {needed.name} is not enabled for this tenant. Choose it in the Domain schema switch and save to use this page.{' '}
          <button type="button" className="font-medium text-blue-800 underline" onClick={() => select.current?.focus()}>
            Go to the switch
          </button>
        </p>
      )}
    </form>
  );
}

