'use client';
/**
 * The console's (and the consent app's) client: TanStack Query over tRPC (@trpc/tanstack-react-query). Only the router's *type*
 * comes from @memory/api; no server code or secret reaches the browser. Mutations carry the session's CSRF
 * token (from auth.me) in `x-csrf-token`; an UNAUTHORIZED answer anywhere sends the admin to sign in.
 */
import type { AppRouter } from '@memory/api';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { TRPCClientError, createTRPCClient, httpBatchLink } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import { type ReactNode, useState } from 'react';

let csrfToken = '';
export const setCsrfToken = (token: string) => {
  csrfToken = token;
};

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

export const isUnauthorized = (err: unknown) => err instanceof TRPCClientError && err.data?.code === 'UNAUTHORIZED';

/** A message fit for the page: the server's message for expected errors, with field errors when given. */
export function errorMessage(err: unknown): string {
  if (err instanceof TRPCClientError) {
    const fields = (err.data?.fieldErrors ?? null) as { path: string; message: string }[] | null;
    if (fields?.length) return `${err.message} ${fields.map((f) => `${f.path}: ${f.message}`).join('; ')}`;
    return err.message;
  }
  return 'Something went wrong. Try again.';
}

function toLogin(err: unknown) {
  if (isUnauthorized(err) && typeof window !== 'undefined' && !window.location.pathname.startsWith('/console/login')) {
    window.location.assign('/console/login');
  }
}

/**
 * TanStack Query + tRPC for a client area of the app (the console, the consent app). `csrf` gives the token to
 * send as `x-csrf-token`; `onUnauthorized` runs when any call answers UNAUTHORIZED.
 */
export function TrpcProviders({
  children,
  csrf,
  onUnauthorized,
}: {
  children: ReactNode;
  csrf: () => string;
  onUnauthorized?: (err: unknown) => void;
}) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        queryCache: new QueryCache({ onError: onUnauthorized }),
        mutationCache: new MutationCache({ onError: onUnauthorized }),
        defaultOptions: {
          queries: { staleTime: 5_000, refetchOnWindowFocus: false, retry: (n, err) => !(err instanceof TRPCClientError) && n < 2 },
        },
      }),
  );
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        httpBatchLink({
          url: '/api/trpc',
          headers: () => {
            const token = csrf();
            return token ? { 'x-csrf-token': token } : {};
          },
        }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}

export function ConsoleProviders({ children }: { children: ReactNode }) {
  return (
    <TrpcProviders csrf={() => csrfToken} onUnauthorized={toLogin}>
      {children}
    </TrpcProviders>
  );
}
