'use client';
/**
 * Webhooks (docs/webhooks.md): endpoints with their event types, create (the signing secret is shown once),
 * enable/disable, rotate the secret (shown once; the old one keeps signing for the overlap window), delete, and
 * each endpoint's delivery log with status, attempts and response codes, and resend.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ConsoleShell } from '../_lib/shell';
import { errorMessage, useTRPC } from '../_lib/trpc';
import { ErrorNote, Loading, NextPageButton, OneTimeSecret, buttonClass, inputClass, secondaryButtonClass, when } from '../_lib/ui';

type Secret = { title: string; value: string };

const STATUS_STYLE: Record<string, string> = {
  succeeded: 'bg-green-100 text-green-800',
  failed: 'bg-red-100 text-red-800',
  pending: 'bg-amber-100 text-amber-800',
  sending: 'bg-blue-100 text-blue-800',
};

function Deliveries({ endpointId, enabled }: { endpointId: string; enabled: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const q = useInfiniteQuery(
    trpc.webhooks.deliveries.infiniteQueryOptions(
      { endpoint_id: endpointId, limit: 20 },
      { getNextPageParam: (last) => last.next_cursor ?? undefined, refetchInterval: 3000 },
    ),
  );
  const resend = useMutation(
    trpc.webhooks.resend.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.pathKey() }),
    }),
  );
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  if (q.isPending) return <Loading />;
  if (q.error) return <ErrorNote error={errorMessage(q.error)} />;
  return (
    <div className="mt-3">
      <h3 className="font-medium">Delivery log</h3>
      {items.length === 0 ? (
        <p className="text-sm text-slate-500">No deliveries yet.</p>
      ) : (
        <div className="mt-2 overflow-x-auto">
          <table className="w-full text-left text-sm" aria-label="Delivery log">
            <thead className="text-slate-500">
              <tr>
                <th className="py-1 pr-3">Event</th>
                <th className="py-1 pr-3">Status</th>
                <th className="py-1 pr-3">Attempts</th>
                <th className="py-1 pr-3">Response codes</th>
                <th className="py-1 pr-3">Created</th>
                <th className="py-1" />
              </tr>
            </thead>
            <tbody>
              {items.map((d) => (
                <tr key={d.id} className="border-t border-slate-100 align-top">
                  <td className="py-1 pr-3">
                    <div className="font-mono">{d.event_type}</div>
                    <div className="font-mono text-xs text-slate-500">{d.webhook_id}</div>
                    {d.resend_of && <div className="text-xs text-slate-500">resend</div>}
                  </td>
                  <td className="py-1 pr-3">
                    <span className={`rounded px-2 py-0.5 text-xs ${STATUS_STYLE[d.status]}`}>{d.status}</span>
                    {d.last_error && <div className="text-xs text-slate-600">{d.last_error}</div>}
                    {d.next_attempt_at && <div className="text-xs text-slate-500">next {when(d.next_attempt_at)}</div>}
                  </td>
                  <td className="py-1 pr-3">
                    {d.attempts} / {d.max_attempts}
                  </td>
                  <td className="py-1 pr-3 font-mono text-xs">{d.attempt_log.map((a) => a.status_code ?? a.error).join(' → ') || '—'}</td>
                  <td className="py-1 pr-3">{when(d.created_at)}</td>
                  <td className="py-1">
                    {(d.status === 'succeeded' || d.status === 'failed') && (
                      <button
                        type="button"
                        className={secondaryButtonClass}
                        aria-label={`Resend ${d.event_type} ${d.webhook_id}`}
                        disabled={!enabled || resend.isPending}
                        title={enabled ? undefined : 'Enable the endpoint to resend'}
                        onClick={() => resend.mutate({ endpoint_id: endpointId, delivery_id: d.id })}
                      >
                        Resend
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <NextPageButton query={q} className="mt-2" />
      <ErrorNote error={resend.error ? errorMessage(resend.error) : null} />
    </div>
  );
}

function Endpoints({ onSecret }: { onSecret: (s: Secret) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const endpoints = useQuery(trpc.webhooks.list.queryOptions(undefined, { refetchInterval: 5000 }));
  const [open, setOpen] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey() });
  const update = useMutation(trpc.webhooks.update.mutationOptions({ onSuccess: () => void refresh() }));
  const remove = useMutation(trpc.webhooks.remove.mutationOptions({ onSuccess: () => void refresh() }));
  const rotate = useMutation(
    trpc.webhooks.rotateSecret.mutationOptions({
      onSuccess: (e) => {
        onSecret({ title: `New signing secret for ${e.url}`, value: e.secret });
        void refresh();
      },
    }),
  );
  if (endpoints.isPending) return <Loading />;
  if (endpoints.error) return <ErrorNote error={errorMessage(endpoints.error)} />;
  if (endpoints.data.length === 0) return <p className="mt-3 text-sm text-slate-500">No webhook endpoints yet.</p>;
  return (
    <ul className="mt-3 space-y-3">
      {endpoints.data.map((e) => {
        const enabled = e.status === 'enabled';
        return (
          <li key={e.id}>
            <article aria-label={`Endpoint ${e.url}`} className="rounded border border-slate-200 p-3">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h3 className="break-all font-mono text-sm font-semibold">{e.url}</h3>
                <span className={`rounded px-2 py-0.5 text-xs ${enabled ? 'bg-green-100 text-green-800' : 'bg-red-100 text-red-800'}`}>
                  {enabled ? 'enabled' : `disabled${e.disabled_reason ? ` (${e.disabled_reason})` : ''}`}
                </span>
              </div>
              {e.description && <p className="text-sm text-slate-600">{e.description}</p>}
              <p className="mt-1 font-mono text-xs text-slate-600">{e.event_types.join(', ')}</p>
              <p className="text-xs text-slate-500">
                secret {e.secret_prefix}… · created {when(e.created_at)}
                {e.previous_secret_expires_at ? ` · previous secret signs until ${when(e.previous_secret_expires_at)}` : ''}
                {e.consecutive_failures > 0 ? ` · ${e.consecutive_failures} failed attempts in a row` : ''}
              </p>
              <div className="mt-2 flex flex-wrap gap-2">
                <button type="button" className={secondaryButtonClass} onClick={() => setOpen(open === e.id ? null : e.id)} aria-expanded={open === e.id}>
                  {open === e.id ? 'Hide deliveries' : 'Deliveries'}
                </button>
                <button
                  type="button"
                  className={secondaryButtonClass}
                  disabled={update.isPending}
                  onClick={() => update.mutate({ endpoint_id: e.id, changes: { enabled: !enabled } })}
                >
                  {enabled ? 'Disable' : 'Enable'}
                </button>
                <button
                  type="button"
                  className={secondaryButtonClass}
                  disabled={rotate.isPending}
                  onClick={() => {
                    if (window.confirm('Rotate the signing secret? The current one keeps signing alongside the new one for the overlap window.')) {
                      rotate.mutate({ endpoint_id: e.id });
                    }
                  }}
                >
                  Rotate secret
                </button>
                <button
                  type="button"
                  className={secondaryButtonClass}
                  disabled={remove.isPending}
                  onClick={() => {
                    if (window.confirm(`Delete the endpoint ${e.url} and its delivery log?`)) remove.mutate({ endpoint_id: e.id });
                  }}
                >
                  Delete
                </button>
              </div>
              {open === e.id && <Deliveries endpointId={e.id} enabled={enabled} />}
            </article>
          </li>
        );
      })}
      <ErrorNote error={[update.error, remove.error, rotate.error].map((err) => (err ? errorMessage(err) : null)).find(Boolean) ?? null} />
    </ul>
  );
}

function CreateEndpoint({ onSecret }: { onSecret: (s: Secret) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const catalogue = useQuery(trpc.webhooks.catalogue.queryOptions());
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [types, setTypes] = useState<string[]>([]);
  const create = useMutation(
    trpc.webhooks.create.mutationOptions({
      onSuccess: (e) => {
        onSecret({ title: `Signing secret for ${e.url}`, value: e.secret });
        setUrl('');
        setDescription('');
        setTypes([]);
        void queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey() });
      },
    }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ url: url.trim(), description: description.trim(), event_types: types as never });
  };
  return (
    <form onSubmit={submit} className="mt-4 space-y-3 border-t border-slate-100 pt-4" aria-labelledby="endpoint-form-heading">
      <h3 id="endpoint-form-heading" className="font-medium">
        Add an endpoint
      </h3>
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="block text-sm font-medium">
          URL
          <input className={inputClass} required type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://example.com/webhooks/memory" />
        </label>
        <label className="block text-sm font-medium">
          Description (optional)
          <input className={inputClass} maxLength={500} value={description} onChange={(e) => setDescription(e.target.value)} />
        </label>
      </div>
      <fieldset>
        <legend className="text-sm font-medium">Event types</legend>
        <div className="mt-1 grid gap-1 sm:grid-cols-2">
          {catalogue.data?.map((c) => (
            <label key={c.type} className="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                className="mt-1"
                checked={types.includes(c.type)}
                onChange={(e) => setTypes(e.target.checked ? [...types, c.type] : types.filter((t) => t !== c.type))}
              />
              <span>
                <span className="font-mono">{c.type}</span> <span className="text-slate-500">{c.description}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" className={buttonClass} disabled={create.isPending || types.length === 0}>
        Create endpoint
      </button>
      <ErrorNote error={create.error ? errorMessage(create.error) : null} />
    </form>
  );
}

export default function WebhooksPage() {
  const [secret, setSecret] = useState<Secret | null>(null);
  return (
    <ConsoleShell title="Webhooks">
      <section aria-labelledby="webhooks-heading" className="rounded border border-slate-200 bg-white p-4">
        <h2 id="webhooks-heading" className="text-lg font-semibold">
          Endpoints
        </h2>
        <p className="text-sm text-slate-600">
          Signed events (Standard Webhooks) sent to your URLs. Verify each delivery with its endpoint’s secret, e.g. <code>verifyWebhook</code> from{' '}
          <code>@memory/sdk</code>.
        </p>
        {secret && <OneTimeSecret title={secret.title} label="Signing secret" value={secret.value} onDismiss={() => setSecret(null)} />}
        <Endpoints onSecret={setSecret} />
        <CreateEndpoint onSecret={setSecret} />
      </section>
    </ConsoleShell>
  );
}
