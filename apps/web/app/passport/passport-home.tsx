'use client';
/**
 * The passport home (docs/consent-app.md): Connected agents (grants, one-click revoke), Your memories (by category,
 * who wrote each, delete, export), Access log (agents' reads), Connections (disconnect), Pending questions (pick the
 * memory to keep), Delete my passport (typed confirmation), Sign out.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, type KeyboardEvent, useState } from 'react';
import { errorMessage, useTRPC } from '../console/_lib/trpc';
import { ErrorNote, inputClass, secondaryButtonClass, when } from '../console/_lib/ui';
import {
  Done,
  ListState,
  PageFrame,
  PassportGate,
  VerifiedBadge,
  accessLabel,
  categoryLabel,
  setPassportCsrf,
  useRefresh,
  useResetPassport,
} from './_lib/client';
import { AccessLog } from './access-log';
import { YourMemories, dangerButtonClass } from './memories';
import { PendingQuestions } from './questions';

const DELETE_PHRASE = 'DELETE MY PASSPORT';

const TABS = [
  { id: 'agents', label: 'Connected agents' },
  { id: 'memories', label: 'Your memories' },
  { id: 'access', label: 'Access log' },
  { id: 'connections', label: 'Connections' },
  { id: 'questions', label: 'Pending questions' },
  { id: 'delete', label: 'Delete my passport' },
] as const;
type TabId = (typeof TABS)[number]['id'];

function ConnectedAgents() {
  const trpc = useTRPC();
  const grants = useQuery(trpc.passport.grants.queryOptions());
  const [done, setDone] = useState<string | null>(null);
  const revoke = useMutation(trpc.passport.revokeGrant.mutationOptions({ onSuccess: useRefresh(trpc.passport.grants.queryKey()) }));
  return (
    <>
      <p className="mb-4 text-sm text-slate-600">Agents you allowed to use memories from your passport. Revoking takes effect at once.</p>
      <Done text={done} />
      <ListState query={grants} empty="No agent can use your passport.">
        {(items) => (
          <ul className="space-y-3">
            {items.map((g) => (
              <li key={g.id}>
                <article aria-label={g.agent.name} className="rounded-lg border border-slate-200 bg-white p-4">
                  <div className="flex flex-wrap items-start justify-between gap-3">
                    <div className="min-w-0">
                      <h3 className="font-semibold">
                        {g.agent.name}
                        <VerifiedBadge verified={g.agent.is_verified} />
                      </h3>
                      <p className="text-sm text-slate-700">
                        <span className="font-medium">{accessLabel(g.accessType)}</span> · changed {when(g.updatedAt)}
                      </p>
                    </div>
                    <button
                      type="button"
                      className={secondaryButtonClass}
                      aria-label={`Revoke ${g.agent.name}`}
                      disabled={revoke.isPending}
                      onClick={() => revoke.mutate({ grantId: g.id }, { onSuccess: () => setDone(`${g.agent.name} can no longer use your passport.`) })}
                    >
                      Revoke
                    </button>
                  </div>
                  <ul aria-label={`What ${g.agent.name} may use`} className="mt-2 flex flex-wrap gap-1">
                    {g.categories.map((c) => (
                      <li key={c} className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-800">
                        {categoryLabel(c)}
                      </li>
                    ))}
                  </ul>
                </article>
              </li>
            ))}
          </ul>
        )}
      </ListState>
      <ErrorNote error={revoke.error ? errorMessage(revoke.error) : null} />
    </>
  );
}

function Connections() {
  const trpc = useTRPC();
  const connections = useQuery(trpc.passport.connections.queryOptions());
  const [done, setDone] = useState<string | null>(null);
  const disconnect = useMutation(trpc.passport.disconnect.mutationOptions({ onSuccess: useRefresh(trpc.passport.connections.queryKey()) }));
  return (
    <>
      <p className="mb-4 text-sm text-slate-600">
        Your accounts at other services that are linked to this passport. Disconnecting ends that account's access token; the agent's
        permissions stay until you revoke them under Connected agents.
      </p>
      <Done text={done} />
      <ListState query={connections} empty="No accounts are connected.">
        {(items) => (
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
            {items.map((c) => (
              <li key={c.id} className="flex flex-wrap items-center justify-between gap-3 p-4">
                <div>
                  <p className="font-medium">{c.agent.name}</p>
                  <p className="text-sm text-slate-600">
                    {c.externalUserIdHint ? `Account ${c.externalUserIdHint} · ` : ''}connected {when(c.createdAt)}
                  </p>
                </div>
                <button
                  type="button"
                  className={secondaryButtonClass}
                  aria-label={`Disconnect ${c.agent.name}`}
                  disabled={disconnect.isPending}
                  onClick={() => disconnect.mutate({ connectionId: c.id }, { onSuccess: () => setDone(`${c.agent.name} was disconnected.`) })}
                >
                  Disconnect
                </button>
              </li>
            ))}
          </ul>
        )}
      </ListState>
      <ErrorNote error={disconnect.error ? errorMessage(disconnect.error) : null} />
    </>
  );
}

function DeletePassport({ onDeleted }: { onDeleted: () => void }) {
  const trpc = useTRPC();
  const [typed, setTyped] = useState('');
  const remove = useMutation(trpc.passport.deletePassport.mutationOptions({ onSuccess: onDeleted }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (typed === DELETE_PHRASE) remove.mutate({ confirm: DELETE_PHRASE });
  };
  return (
    <form onSubmit={submit} className="space-y-4 rounded-lg border border-red-200 bg-white p-4">
      <p className="text-sm text-slate-700">
        Deleting your passport erases your universal memories, every agent's access and every connection, at once and for good. Agents
        keep nothing they could use to read your passport again.
      </p>
      <label htmlFor="delete-confirm" className="block text-sm font-medium">
        Type <span className="font-mono font-semibold">{DELETE_PHRASE}</span> to confirm
        <input
          id="delete-confirm"
          autoComplete="off"
          spellCheck={false}
          className={inputClass}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
        />
      </label>
      <button type="submit" className={dangerButtonClass} disabled={typed !== DELETE_PHRASE || remove.isPending}>
        Delete my passport
      </button>
      <ErrorNote error={remove.error ? errorMessage(remove.error) : null} />
    </form>
  );
}

function Tabs({ active, onChange }: { active: TabId; onChange: (id: TabId) => void }) {
  const move = (e: KeyboardEvent<HTMLButtonElement>) => {
    const i = TABS.findIndex((t) => t.id === active);
    const next = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? TABS.length - 1 : null;
    if (next === null) return;
    e.preventDefault();
    const tab = TABS[(next + TABS.length) % TABS.length];
    onChange(tab.id);
    document.getElementById(`tab-${tab.id}`)?.focus();
  };
  return (
    <div role="tablist" aria-label="Your passport" className="mb-5 flex gap-1 overflow-x-auto border-b border-slate-200 sm:flex-wrap sm:overflow-visible">
      {TABS.map((t) => (
        <button
          key={t.id}
          id={`tab-${t.id}`}
          type="button"
          role="tab"
          aria-selected={active === t.id}
          aria-controls={`panel-${t.id}`}
          tabIndex={active === t.id ? 0 : -1}
          onClick={() => onChange(t.id)}
          onKeyDown={move}
          className={`whitespace-nowrap border-b-2 px-3 py-2 text-sm focus:outline-none focus:ring-2 focus:ring-blue-300 ${active === t.id ? 'border-blue-700 font-medium text-blue-800' : 'border-transparent text-slate-600 hover:text-slate-900'}`}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}

function SignedIn({ email, retentionDays, onSignedOut }: { email: string; retentionDays: number; onSignedOut: (message: string) => void }) {
  const trpc = useTRPC();
  const [tab, setTab] = useState<TabId>('agents');
  const signOut = useMutation(trpc.passport.signOut.mutationOptions({ onSettled: () => onSignedOut('You have signed out.') }));
  return (
    <>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">Your Memory Passport</h1>
          <p className="text-sm text-slate-600">Signed in as {email}</p>
        </div>
        <button type="button" className={secondaryButtonClass} onClick={() => signOut.mutate()} disabled={signOut.isPending}>
          Sign out
        </button>
      </div>
      <Tabs active={tab} onChange={setTab} />
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} tabIndex={0} className="focus:outline-none">
        <h2 className="sr-only">{TABS.find((t) => t.id === tab)?.label}</h2>
        {tab === 'agents' && <ConnectedAgents />}
        {tab === 'memories' && <YourMemories />}
        {tab === 'access' && <AccessLog retentionDays={retentionDays} />}
        {tab === 'connections' && <Connections />}
        {tab === 'questions' && <PendingQuestions />}
        {tab === 'delete' && <DeletePassport onDeleted={() => onSignedOut('Your passport has been deleted and you have been signed out.')} />}
      </div>
    </>
  );
}

/** `retentionDays`: how long the access log keeps an entry (the server's PASSPORT_ACCESS_LOG_RETENTION). */
export function PassportHome({ retentionDays }: { retentionDays: number }) {
  const reset = useResetPassport();
  const [message, setMessage] = useState<string | null>(null);
  const signedOut = (text: string) => {
    setPassportCsrf('');
    setMessage(text);
    void reset();
  };
  return (
    <PageFrame>
      <PassportGate
        signedOut={
          <>
            {message && (
              <p role="status" className="mb-4 rounded border border-slate-200 bg-white px-3 py-2 text-sm">
                {message}
              </p>
            )}
            <h1 className="text-2xl font-semibold">Sign in to your Memory Passport</h1>
            <p className="mt-2 text-sm text-slate-600">See and change which agents may use your memories. We'll e-mail you a one-time code.</p>
          </>
        }
      >
        {(email) => <SignedIn email={email} retentionDays={retentionDays} onSignedOut={signedOut} />}
      </PassportGate>
    </PageFrame>
  );
}

