'use client';
/** Settings: API keys (list, create — shown once — and revoke), service writers (list, create) and memory settings (payload retention, review before write). */
import { MEMORY_CATEGORIES } from '@memory/core/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ConsoleShell } from '../_lib/shell';
import { errorMessage, useTRPC } from '../_lib/trpc';
import { ErrorNote, Loading, OneTimeSecret, buttonClass, inputClass, secondaryButtonClass, when } from '../_lib/ui';
import { MemorySettings } from './memory-settings';

function Writers() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const writers = useQuery(trpc.writers.list.queryOptions());
  const keys = useQuery(trpc.apiKeys.list.queryOptions());
  const [serviceKey, setServiceKey] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [defaultPriority, setDefaultPriority] = useState('10');
  const [priorities, setPriorities] = useState<Record<string, string>>({});
  const [apiKeyId, setApiKeyId] = useState('');
  const create = useMutation(
    trpc.writers.create.mutationOptions({
      onSuccess: () => {
        setServiceKey('');
        setDisplayName('');
        setPriorities({});
        setApiKeyId('');
        void queryClient.invalidateQueries({ queryKey: trpc.writers.list.queryKey() });
      },
    }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const categories = Object.fromEntries(
      Object.entries(priorities)
        .filter(([, v]) => v.trim() !== '')
        .map(([k, v]) => [k, Number(v)]),
    );
    create.mutate({
      service_key: serviceKey.trim(),
      display_name: displayName.trim(),
      authority_rules: { default_priority: Number(defaultPriority), categories },
      api_key_id: apiKeyId || null,
    });
  };

  return (
    <section aria-labelledby="writers-heading" className="rounded border border-slate-200 bg-white p-4">
      <h2 id="writers-heading" className="text-lg font-semibold">
        Service writers
      </h2>
      <p className="text-sm text-slate-600">Backend services that write user facts, with their authority per category (higher wins a conflict).</p>
      {writers.isPending ? (
        <Loading />
      ) : writers.error ? (
        <ErrorNote error={errorMessage(writers.error)} />
      ) : writers.data.length === 0 ? (
        <p className="mt-3 text-sm text-slate-500">No service writers yet.</p>
      ) : (
        <div className="mt-3 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="text-slate-500">
              <tr>
                <th className="py-1 pr-3">Service key</th>
                <th className="py-1 pr-3">Name</th>
                <th className="py-1 pr-3">Authority</th>
                <th className="py-1 pr-3">Bound key</th>
                <th className="py-1">Created</th>
              </tr>
            </thead>
            <tbody>
              {writers.data.map((w) => (
                <tr key={w.id} className="border-t border-slate-100 align-top">
                  <td className="py-1 pr-3 font-mono">{w.service_key}</td>
                  <td className="py-1 pr-3">{w.display_name}</td>
                  <td className="py-1 pr-3 font-mono text-xs">
                    default {w.authority_rules.default_priority}
                    {Object.entries(w.authority_rules.categories ?? {}).map(([c, p]) => (
                      <div key={c}>
                        {c} {p}
                      </div>
                    ))}
                  </td>
                  <td className="py-1 pr-3 font-mono text-xs">{keys.data?.find((k) => k.id === w.api_key_id)?.name ?? w.api_key_id ?? '—'}</td>
                  <td className="py-1">{when(w.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form onSubmit={submit} className="mt-4 space-y-3 border-t border-slate-100 pt-4" aria-labelledby="writer-form-heading">
        <h3 id="writer-form-heading" className="font-medium">
          Add a service writer
        </h3>
        <div className="grid gap-3 sm:grid-cols-2">
          <label className="block text-sm font-medium">
            Service key
            <input className={inputClass} required value={serviceKey} onChange={(e) => setServiceKey(e.target.value)} placeholder="billing" />
          </label>
          <label className="block text-sm font-medium">
            Display name
            <input className={inputClass} required value={displayName} onChange={(e) => setDisplayName(e.target.value)} placeholder="Billing service" />
          </label>
          <label className="block text-sm font-medium">
            Default priority (0–1000)
            <input className={inputClass} type="number" min={0} max={1000} required value={defaultPriority} onChange={(e) => setDefaultPriority(e.target.value)} />
          </label>
          <label className="block text-sm font-medium">
            Bound API key (optional)
            <select className={inputClass} value={apiKeyId} onChange={(e) => setApiKeyId(e.target.value)}>
              <option value="">Any key of this tenant</option>
              {keys.data
                ?.filter((k) => !k.revoked_at)
                .map((k) => (
                  <option key={k.id} value={k.id}>
                    {k.name} ({k.display_prefix}…{k.last4})
                  </option>
                ))}
            </select>
          </label>
        </div>
        <fieldset>
          <legend className="text-sm font-medium">Priority per category (optional; empty uses the default)</legend>
          <div className="mt-1 grid grid-cols-2 gap-2 sm:grid-cols-4">
            {MEMORY_CATEGORIES.map((c) => (
              <label key={c} className="block text-xs">
                {c}
                <input
                  className={inputClass}
                  type="number"
                  min={0}
                  max={1000}
                  value={priorities[c] ?? ''}
                  onChange={(e) => setPriorities({ ...priorities, [c]: e.target.value })}
                />
              </label>
            ))}
          </div>
        </fieldset>
        <button type="submit" className={buttonClass} disabled={create.isPending}>
          Create service writer
        </button>
        <ErrorNote error={create.error ? errorMessage(create.error) : null} />
      </form>
    </section>
  );
}

function ApiKeys() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.apiKeys.list.queryOptions());
  const [name, setName] = useState('');
  const [created, setCreated] = useState<{ name: string; api_key: string } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
  const create = useMutation(
    trpc.apiKeys.create.mutationOptions({
      onSuccess: (k) => {
        setCreated({ name: k.name, api_key: k.api_key });
        setName('');
        void refresh();
      },
    }),
  );
  const revoke = useMutation(trpc.apiKeys.revoke.mutationOptions({ onSuccess: () => void refresh() }));

  return (
    <section aria-labelledby="keys-heading" className="rounded border border-slate-200 bg-white p-4">
      <h2 id="keys-heading" className="text-lg font-semibold">
        API keys
      </h2>
      <p className="text-sm text-slate-600">Keys your backends send as <code>Authorization: ApiKey …</code>. Only a prefix and the last four characters are kept for display.</p>
      {created && (
        <OneTimeSecret title={`New key “${created.name}”`} label="New API key" value={created.api_key} onDismiss={() => setCreated(null)} />
      )}
      {keys.isPending ? (
        <Loading />
      ) : keys.error ? (
        <ErrorNote error={errorMessage(keys.error)} />
      ) : (
        <ul className="mt-3 divide-y divide-slate-100">
          {keys.data.map((k) => (
            <li key={k.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <div>
                <div className="font-medium">{k.name}</div>
                <div className="font-mono text-xs text-slate-600">
                  {k.display_prefix}…{k.last4} · created {when(k.created_at)}
                  {k.revoked_at ? ` · revoked ${when(k.revoked_at)}` : ''}
                </div>
              </div>
              {k.revoked_at ? (
                <span className="rounded bg-slate-100 px-2 py-1 text-xs text-slate-600">Revoked</span>
              ) : (
                <button
                  type="button"
                  className={secondaryButtonClass}
                  aria-label={`Revoke key ${k.name}`}
                  disabled={revoke.isPending}
                  onClick={() => {
                    if (window.confirm(`Revoke the key “${k.name}”? Services using it stop working at once.`)) revoke.mutate({ key_id: k.id });
                  }}
                >
                  Revoke
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <ErrorNote error={revoke.error ? errorMessage(revoke.error) : null} />
      <form
        className="mt-4 flex flex-wrap items-end gap-2 border-t border-slate-100 pt-4"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate({ name: name.trim() });
        }}
      >
        <label className="block flex-1 text-sm font-medium">
          Key name
          <input className={inputClass} required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} placeholder="support-service" />
        </label>
        <button type="submit" className={buttonClass} disabled={create.isPending}>
          Create API key
        </button>
      </form>
      <ErrorNote error={create.error ? errorMessage(create.error) : null} />
    </section>
  );
}

export default function SettingsPage() {
  return (
    <ConsoleShell title="Settings">
      <div className="space-y-6">
        <ApiKeys />
        <Writers />
        <MemorySettings />
      </div>
    </ConsoleShell>
  );
}
