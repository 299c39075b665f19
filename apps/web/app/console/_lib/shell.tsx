'use client';
/**
 * The signed-in frame of every console page: who is signed in, navigation, sign-out. Below the `md` width
 * (phones) the navigation folds behind a "Menu" button and opens as a wrapping list; from `md` up it is a
 * tab row.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { type ReactNode, useState } from 'react';
import { errorMessage, isUnauthorized, setCsrfToken, useTRPC } from './trpc';
import { ErrorNote, Loading, secondaryButtonClass } from './ui';

const NAV = [
  { href: '/console', label: 'Overview' },
  { href: '/console/reviews', label: 'Reviews' },
  { href: '/console/source-events', label: 'Source events' },
  { href: '/console/users', label: 'Users' },
  { href: '/console/memories', label: 'Memories' },
  { href: '/console/students', label: 'Students' },
  { href: '/console/customers', label: 'Customers' },
  { href: '/console/support', label: 'Support' },
  { href: '/console/usage', label: 'Usage' },
  { href: '/console/webhooks', label: 'Webhooks' },
  { href: '/console/settings', label: 'Settings' },
];

export function ConsoleShell({ title, children }: { title: string; children: ReactNode }) {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const queryClient = useQueryClient();
  const [menuOpen, setMenuOpen] = useState(false);
  const me = useQuery(trpc.auth.me.queryOptions());
  if (me.data) setCsrfToken(me.data.csrf_token);
  const signOut = useMutation(
    trpc.auth.signOut.mutationOptions({
      onSettled: () => {
        setCsrfToken('');
        queryClient.clear();
        router.replace('/console/login');
      },
    }),
  );

  if (me.isPending) {
    return (
      <div className="mx-auto max-w-6xl px-4 py-8">
        <Loading />
      </div>
    );
  }
  if (me.error) {
    return (
      <div className="mx-auto max-w-6xl px-4 py-8">
        {isUnauthorized(me.error) ? (
          <p>
            Your session has ended.{' '}
            <Link className="text-blue-700 underline" href="/console/login">
              Sign in
            </Link>
          </p>
        ) : (
          <ErrorNote error={errorMessage(me.error)} />
        )}
      </div>
    );
  }
  const isActive = (href: string) => (href === '/console' ? pathname === '/console' : pathname.startsWith(href));
  const current = NAV.find((n) => isActive(n.href))?.label ?? title;
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <div className="min-w-0">
            <div className="text-sm font-semibold">Memory console</div>
            <div className="break-all text-xs text-slate-600">
              {me.data.tenant_name} · {me.data.email}
            </div>
          </div>
          <div className="flex items-center gap-2">
            <button
              type="button"
              className={`${secondaryButtonClass} md:hidden`}
              aria-expanded={menuOpen}
              aria-controls="console-nav"
              onClick={() => setMenuOpen(!menuOpen)}
            >
              {menuOpen ? 'Close menu' : 'Menu'}
              <span className="sr-only"> (current page: {current})</span>
            </button>
            <button type="button" className={secondaryButtonClass} onClick={() => signOut.mutate()} disabled={signOut.isPending}>
              Sign out
            </button>
          </div>
        </div>
        <nav id="console-nav" aria-label="Console" className={`mx-auto max-w-6xl px-4 ${menuOpen ? 'block' : 'hidden'} md:block`}>
          <ul className="flex flex-col pb-2 md:flex-row md:flex-wrap md:gap-1 md:pb-0">
            {NAV.map((n) => {
              const active = isActive(n.href);
              return (
                <li key={n.href}>
                  <Link
                    href={n.href}
                    aria-current={active ? 'page' : undefined}
                    onClick={() => setMenuOpen(false)}
                    className={`block whitespace-nowrap border-l-4 px-3 py-2 text-sm md:border-b-2 md:border-l-0 ${active ? 'border-blue-700 font-medium text-blue-800' : 'border-transparent text-slate-700 hover:text-slate-900'}`}
                  >
                    {n.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-6">
        <h1 className="mb-4 text-2xl font-semibold">{title}</h1>
        {children}
      </main>
    </div>
  );
}
