'use client';
/**
 * The consent app's client pieces (/connect, /passport; docs/consent-app.md). It calls only the `passport.*`
 * tRPC procedures at /api/trpc: the session lives in the HttpOnly `mem_passport` cookie, and mutations carry the
 * session's CSRF token in `x-csrf-token`. No tenant key, agent key or X-Service-UUI token ever reaches the browser.
 */
import { CATEGORY_LABELS, type MemoryCategory } from '@memory/core/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { CodeSignInForm } from '../../console/_lib/code-sign-in';
import { TrpcProviders, errorMessage, useTRPC } from '../../console/_lib/trpc';
import { ErrorNote, Loading } from '../../console/_lib/ui';

/** Refetches a query after a mutation changed it. */
export function useRefresh(queryKey: readonly unknown[]) {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey });
}

let passportCsrf = '';
export const setPassportCsrf = (token: string) => {
  passportCsrf = token;
};

export function PassportProviders({ children }: { children: ReactNode }) {
  return <TrpcProviders csrf={() => passportCsrf}>{children}</TrpcProviders>;
}

/** The passport session (who is signed in); keeps the CSRF token for the mutations. */
export function usePassportSession() {
  const trpc = useTRPC();
  const session = useQuery(trpc.passport.session.queryOptions());
  setPassportCsrf(session.data?.signedIn ? (session.data.csrfToken ?? '') : '');
  return session;
}

/** After sign-in, sign-out or deletion every passport query is stale: start again from the session. */
export function useResetPassport() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.resetQueries({ queryKey: trpc.passport.pathKey() });
}

/** The e-mail → one-time code sign-in of the passport (a first sign-in creates the passport). */
export function PassportSignIn() {
  const trpc = useTRPC();
  const reset = useResetPassport();
  const sendCode = useMutation(trpc.passport.sendCode.mutationOptions());
  const verifyCode = useMutation(trpc.passport.verifyCode.mutationOptions());
  return (
    <CodeSignInForm
      sendCode={async (email) => {
        await sendCode.mutateAsync({ email });
        return `A sign-in code is on its way to ${email}.`;
      }}
      verifyCode={async (email, code) => {
        const done = await verifyCode.mutateAsync({ email, code });
        setPassportCsrf(done.csrfToken);
        await reset();
      }}
    />
  );
}

/** Renders the children for a signed-in user, else the sign-in form between `signedOut` and `after`. */
export function PassportGate({
  signedOut,
  after,
  children,
}: {
  signedOut: ReactNode;
  after?: ReactNode;
  children: (email: string) => ReactNode;
}) {
  const session = usePassportSession();
  if (session.isPending) return <Loading />;
  if (session.error) return <ErrorNote error={errorMessage(session.error)} />;
  if (!session.data.signedIn) {
    return (
      <>
        {signedOut}
        <PassportSignIn />
        {after}
      </>
    );
  }
  return <>{children(session.data.email ?? '')}</>;
}

export function VerifiedBadge({ verified }: { verified: boolean }) {
  if (!verified) return null;
  return (
    <span className="ml-2 inline-flex items-center rounded-full bg-emerald-100 px-2 py-0.5 align-middle text-xs font-medium text-emerald-800">
      <span aria-hidden="true">✓&nbsp;</span>Verified
    </span>
  );
}

export const categoryLabel = (c: string) => CATEGORY_LABELS[c as MemoryCategory] ?? c;

export const accessLabel = (a: string) => (a === 'read_write' ? 'Read and write' : 'Read only');

export function PageFrame({ children }: { children: ReactNode }) {
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto max-w-2xl px-4 py-3 text-sm font-semibold">Memory Passport</div>
      </header>
      <main className="mx-auto max-w-2xl px-4 py-6 sm:py-10">{children}</main>
    </div>
  );
}

/** The confirmation of the last action on a tab. */
export function Done({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p role="status" className="mb-3 rounded border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
      {text}
    </p>
  );
}

/** One list of the passport (grants, connections, questions) with its loading, error and empty states. */
export function ListState<T>({
  query,
  empty,
  children,
}: {
  query: { isPending: boolean; error: unknown; data?: T[] };
  empty: string;
  children: (items: T[]) => ReactNode;
}) {
  if (query.isPending) return <Loading />;
  if (query.error) return <ErrorNote error={errorMessage(query.error)} />;
  const items = query.data ?? [];
  if (items.length === 0) return <p className="text-sm text-slate-600">{empty}</p>;
  return <>{children(items)}</>;
}
