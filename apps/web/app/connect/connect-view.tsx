'use client';
/**
 * The consent screen (docs/consent-app.md): who asks (the agent's public profile), what it may use (every memory
 * category in plain words, the agent's defaults preselected), read-only or read-write, Approve or Decline.
 * Signed out, the e-mail code sign-in comes first. The link token is in the URL only; it is sent to
 * `passport.linkRequest` / `approveLink` / `declineLink` and never stored by the page.
 */
import type { MemoryCategory } from '@memory/core/browser';
import { useMutation, useQuery } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import Link from 'next/link';
import { type FormEvent, type ReactNode, useState } from 'react';
import { errorMessage, useTRPC } from '../console/_lib/trpc';
import { ErrorNote, Loading, buttonClass, secondaryButtonClass } from '../console/_lib/ui';
import { PageFrame, PassportGate, VerifiedBadge } from '../passport/_lib/client';

type LinkStatus = 'pending' | 'approved' | 'declined' | 'expired' | 'used' | 'invalid';

const STATUS_TEXT: Record<Exclude<LinkStatus, 'pending'>, { title: string; body: string }> = {
  approved: { title: 'This link was already approved', body: 'The connection is set up. You can close this page.' },
  used: { title: 'This link has already been used', body: 'Each connection link works once. To connect again, start again from the app you came from.' },
  declined: { title: 'You declined this connection', body: 'Nothing was shared. To connect after all, start again from the app you came from.' },
  expired: { title: 'This link has expired', body: 'Connection links are valid for a few minutes. Start again from the app you came from to get a new one.' },
  invalid: { title: 'This link is not valid', body: 'Check that you opened the whole link, or start again from the app you came from.' },
};

/** The link state behind a refused approve/decline (its apiCode), so the page can say what happened. */
function statusOfError(err: unknown): LinkStatus | null {
  const code = err instanceof TRPCClientError ? (err.data?.apiCode as string | null | undefined) : null;
  const map: Record<string, LinkStatus> = {
    link_token_expired: 'expired',
    link_token_used: 'used',
    link_token_declined: 'declined',
    link_token_invalid: 'invalid',
  };
  return code ? (map[code] ?? null) : null;
}

function Notice({ title, children, tone = 'info' }: { title: string; children: ReactNode; tone?: 'info' | 'done' }) {
  const colours = tone === 'done' ? 'border-emerald-200 bg-emerald-50 text-emerald-950' : 'border-slate-200 bg-white text-slate-900';
  return (
    <section role="status" aria-labelledby="notice-title" className={`rounded-lg border p-5 ${colours}`}>
      <h1 id="notice-title" className="text-xl font-semibold">
        {title}
      </h1>
      <div className="mt-2 text-sm">{children}</div>
    </section>
  );
}

const manageLink = (
  <Link href="/passport" className="font-medium text-blue-700 underline focus:outline-none focus:ring-2 focus:ring-blue-300">
    Manage your passport
  </Link>
);

type Agent = {
  id: string;
  name: string;
  description: string;
  logo_url: string;
  website_url: string;
  is_verified: boolean;
  default_categories_requested: string[];
};

function AgentProfile({ agent }: { agent: Agent }) {
  return (
    <section aria-label="Who is asking" className="flex items-start gap-4 rounded-lg border border-slate-200 bg-white p-4">
      {agent.logo_url ? (
        <img src={agent.logo_url} alt="" width={56} height={56} className="h-14 w-14 shrink-0 rounded object-contain" referrerPolicy="no-referrer" />
      ) : (
        <div aria-hidden="true" className="flex h-14 w-14 shrink-0 items-center justify-center rounded bg-slate-200 text-xl font-semibold text-slate-600">
          {agent.name.slice(0, 1).toUpperCase()}
        </div>
      )}
      <div className="min-w-0">
        <p className="text-lg font-semibold">
          {agent.name}
          <VerifiedBadge verified={agent.is_verified} />
        </p>
        {!agent.is_verified && <p className="text-xs text-slate-500">Not verified by the operator of this service.</p>}
        {agent.description && <p className="mt-1 text-sm text-slate-700">{agent.description}</p>}
        {agent.website_url && (
          <a
            href={agent.website_url}
            target="_blank"
            rel="noopener noreferrer"
            className="mt-1 inline-block break-all text-sm text-blue-700 underline focus:outline-none focus:ring-2 focus:ring-blue-300"
          >
            {agent.website_url.replace(/^https?:\/\//, '')}
          </a>
        )}
      </div>
    </section>
  );
}

type Outcome = 'approved' | 'declined' | LinkStatus;

/**
 * Approve and decline: the browser goes to the agent's registered redirect (`redirectTo`) exactly when there is
 * one; otherwise, or when the link changed meanwhile, the page shows the outcome.
 */
function useLinkAnswers(onAnswered: (outcome: Outcome) => void) {
  const trpc = useTRPC();
  const settle = (outcome: 'approved' | 'declined') => (r: { redirectTo: string | null }) => {
    if (r.redirectTo) window.location.assign(r.redirectTo);
    else onAnswered(outcome);
  };
  const refused = (err: unknown) => {
    const status = statusOfError(err);
    if (status) onAnswered(status);
  };
  const approve = useMutation(trpc.passport.approveLink.mutationOptions({ onSuccess: settle('approved'), onError: refused }));
  const decline = useMutation(trpc.passport.declineLink.mutationOptions({ onSuccess: settle('declined'), onError: refused }));
  return { approve, decline, busy: approve.isPending || decline.isPending || approve.isSuccess || decline.isSuccess };
}

/** Declining needs no sign-in: the link is the user's. */
function SignedOutDecline({ agentId, linkToken, agent, onAnswered }: { agentId: string; linkToken: string; agent: Agent; onAnswered: (o: Outcome) => void }) {
  const { decline, busy } = useLinkAnswers(onAnswered);
  return (
    <div className="mt-6 border-t border-slate-200 pt-4 text-sm text-slate-700">
      <p>Don't want to connect {agent.name}?</p>
      <button type="button" className={`${secondaryButtonClass} mt-2`} disabled={busy} onClick={() => decline.mutate({ agentId, linkToken })}>
        Decline without signing in
      </button>
      <ErrorNote error={decline.error ? errorMessage(decline.error) : null} />
    </div>
  );
}

function ConsentForm({
  agentId,
  linkToken,
  agent,
  categories,
  email,
  onAnswered,
}: {
  agentId: string;
  linkToken: string;
  agent: Agent;
  categories: { value: MemoryCategory; label: string; description: string }[];
  email: string;
  onAnswered: (outcome: Outcome) => void;
}) {
  const [chosen, setChosen] = useState<MemoryCategory[]>(() => categories.filter((c) => agent.default_categories_requested.includes(c.value)).map((c) => c.value));
  const [accessType, setAccessType] = useState<'read_only' | 'read_write'>('read_only');
  const [problem, setProblem] = useState<string | null>(null);
  const { approve, decline, busy } = useLinkAnswers(onAnswered);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (chosen.length === 0) {
      setProblem('Choose at least one kind of memory, or decline.');
      return;
    }
    setProblem(null);
    approve.mutate({ agentId, linkToken, categories: chosen, accessType });
  };
  const toggle = (value: MemoryCategory, on: boolean) => setChosen((list) => (on ? [...list.filter((v) => v !== value), value] : list.filter((v) => v !== value)));

  return (
    <form onSubmit={submit} className="mt-6 space-y-6" aria-describedby="consent-intro">
      <p id="consent-intro" className="text-sm text-slate-700">
        Signed in as <span className="font-medium">{email}</span>. {agent.name} asks to use memories from your passport. You decide what it may
        use; you can change or revoke this at any time in your passport.
      </p>
      <fieldset className="rounded-lg border border-slate-200 bg-white p-4">
        <legend className="px-1 text-base font-semibold">What may {agent.name} use?</legend>
        <ul className="mt-2 space-y-3">
          {categories.map((c) => (
            <li key={c.value}>
              <label className="flex cursor-pointer items-start gap-3 rounded p-1 focus-within:ring-2 focus-within:ring-blue-300">
                <input
                  type="checkbox"
                  name="categories"
                  value={c.value}
                  checked={chosen.includes(c.value)}
                  onChange={(e) => toggle(c.value, e.target.checked)}
                  aria-describedby={`cat-${c.value}-desc`}
                  className="mt-1 h-5 w-5 shrink-0 accent-blue-700"
                />
                <span>
                  <span className="block font-medium">{c.label}</span>
                  <span id={`cat-${c.value}-desc`} className="block text-sm text-slate-600">
                    {c.description}
                  </span>
                </span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <fieldset className="rounded-lg border border-slate-200 bg-white p-4">
        <legend className="px-1 text-base font-semibold">Access</legend>
        <div className="mt-2 space-y-3">
          {(
            [
              ['read_only', 'Read only', `${agent.name} may read these memories, but not add any.`],
              ['read_write', 'Read and write', `${agent.name} may read these memories and add new ones to your passport.`],
            ] as const
          ).map(([value, label, help]) => (
            <label key={value} className="flex cursor-pointer items-start gap-3 rounded p-1 focus-within:ring-2 focus-within:ring-blue-300">
              <input
                type="radio"
                name="access"
                value={value}
                checked={accessType === value}
                onChange={() => setAccessType(value)}
                aria-describedby={`access-${value}-desc`}
                className="mt-1 h-5 w-5 shrink-0 accent-blue-700"
              />
              <span>
                <span className="block font-medium">{label}</span>
                <span id={`access-${value}-desc`} className="block text-sm text-slate-600">
                  {help}
                </span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="flex flex-col gap-2 sm:flex-row">
        <button type="submit" className={`${buttonClass} py-3 sm:py-2`} disabled={busy}>
          Approve
        </button>
        <button
          type="button"
          className={`${secondaryButtonClass} py-3 sm:py-2`}
          disabled={busy}
          onClick={() => decline.mutate({ agentId, linkToken })}
        >
          Decline
        </button>
      </div>
      <ErrorNote error={problem ?? (approve.error ? errorMessage(approve.error) : decline.error ? errorMessage(decline.error) : null)} />
    </form>
  );
}

export function ConnectView({ agentId, linkToken }: { agentId: string; linkToken: string }) {
  const trpc = useTRPC();
  const complete = agentId !== '' && linkToken !== '';
  const link = useQuery({ ...trpc.passport.linkRequest.queryOptions({ agentId, linkToken }), enabled: complete, staleTime: Number.POSITIVE_INFINITY });
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  if (!complete || (link.error instanceof TRPCClientError && link.error.data?.code === 'NOT_FOUND')) {
    return (
      <PageFrame>
        <Notice title={STATUS_TEXT.invalid.title}>{STATUS_TEXT.invalid.body}</Notice>
      </PageFrame>
    );
  }
  if (link.isPending) {
    return (
      <PageFrame>
        <Loading />
      </PageFrame>
    );
  }
  if (link.error) {
    return (
      <PageFrame>
        <ErrorNote error={errorMessage(link.error)} />
      </PageFrame>
    );
  }
  const { agent, categories } = link.data;
  const state = outcome ?? link.data.status;

  if (state === 'approved' && outcome === 'approved') {
    return (
      <PageFrame>
        <Notice title="You're connected — you can close this page" tone="done">
          <p>
            {agent.name} can now use the memories you chose. {manageLink} to change or revoke its access.
          </p>
        </Notice>
      </PageFrame>
    );
  }
  if (state === 'declined' && outcome === 'declined') {
    return (
      <PageFrame>
        <Notice title="You declined">
          <p>
            {agent.name} was not connected and nothing was shared. You can close this page.
          </p>
        </Notice>
      </PageFrame>
    );
  }
  if (state !== 'pending') {
    const text = STATUS_TEXT[state];
    return (
      <PageFrame>
        <Notice title={text.title}>
          <p>{text.body}</p>
        </Notice>
      </PageFrame>
    );
  }

  return (
    <PageFrame>
      <h1 className="mb-4 text-2xl font-semibold">Connect {agent.name} to your Memory Passport</h1>
      <AgentProfile agent={agent} />
      <PassportGate
        signedOut={<p className="mt-6 text-sm text-slate-700">Sign in to your Memory Passport to continue. We'll e-mail you a one-time code.</p>}
        after={<SignedOutDecline agentId={agentId} linkToken={linkToken} agent={agent} onAnswered={setOutcome} />}
      >
        {(email) => (
          <ConsentForm agentId={agentId} linkToken={linkToken} agent={agent} categories={categories} email={email} onAnswered={setOutcome} />
        )}
      </PassportGate>
    </PageFrame>
  );
}
