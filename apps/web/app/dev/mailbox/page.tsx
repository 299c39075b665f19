/**
 * The development mailbox: outgoing mail (console sign-in codes) when no SMTP server is configured.
 * With SMTP_URL set this page does not exist (404).
 */
import { listDevMailbox } from '@memory/core';
import { notFound } from 'next/navigation';
import { devMailboxEnabled } from '@/lib/console';
import { getRuntime } from '@/lib/runtime';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Development mailbox', robots: { index: false } };

export default async function DevMailboxPage() {
  const rt = await getRuntime();
  if (!devMailboxEnabled(rt)) notFound();
  const messages = await listDevMailbox(rt.db, 50);
  return (
    <main className="mx-auto max-w-3xl px-4 py-8 sm:px-6">
      <h1 className="text-2xl font-semibold">Development mailbox</h1>
      <p className="mt-2 text-sm text-amber-800">
        No SMTP server is configured (<code>SMTP_URL</code>), so outgoing mail is kept here. Anyone who can reach this
        server can read it: configure SMTP before exposing the console.
      </p>
      {messages.length === 0 ? (
        <p className="mt-6 text-slate-600">No messages yet.</p>
      ) : (
        <ol className="mt-6 space-y-4">
          {messages.map((m) => (
            <li key={m.id}>
              <article className="rounded border border-slate-200 bg-white p-4" data-to={m.to} aria-label={`Message to ${m.to}`}>
                <header className="text-sm text-slate-600">
                  <div>
                    To: <span className="font-medium text-slate-900">{m.to}</span>
                  </div>
                  <div>Subject: {m.subject}</div>
                  <div>
                    <time dateTime={m.created_at}>{m.created_at}</time>
                  </div>
                </header>
                <pre className="mt-3 whitespace-pre-wrap font-mono text-sm">{m.body}</pre>
              </article>
            </li>
          ))}
        </ol>
      )}
    </main>
  );
}
