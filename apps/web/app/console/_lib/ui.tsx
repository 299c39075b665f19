'use client';
/** Small shared pieces of the console pages. */
import { type ReactNode, useState } from 'react';

export const inputClass =
  'mt-1 block w-full rounded border border-slate-300 bg-white px-3 py-2 text-base focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-200';
export const buttonClass =
  'inline-flex items-center justify-center rounded bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800 focus:outline-none focus:ring-2 focus:ring-blue-300 disabled:opacity-50';
export const secondaryButtonClass =
  'inline-flex items-center justify-center rounded border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100 focus:outline-none focus:ring-2 focus:ring-blue-300 disabled:opacity-50';

/** A key or secret the server returns once: shown in a read-only field with a warning, until dismissed. */
export function OneTimeSecret({ title, label, value, onDismiss }: { title: string; label: string; value: string; onDismiss: () => void }) {
  return (
    <div role="status" className="mt-3 rounded border border-amber-300 bg-amber-50 p-3">
      <p className="text-sm font-medium">{title} — copy it now, it is shown only once:</p>
      <input aria-label={label} readOnly className={`${inputClass} font-mono text-sm`} value={value} onFocus={(e) => e.currentTarget.select()} />
      <p className="mt-1 text-xs text-slate-600">Copy it with the button, or select the field and press Ctrl/⌘+C. After you leave this page it cannot be shown again.</p>
      <div className="mt-2 flex flex-wrap gap-2">
        <CopyButton value={value} />
        <button type="button" className={secondaryButtonClass} onClick={onDismiss}>
          I have stored it
        </button>
      </div>
    </div>
  );
}

/** Puts `value` on the clipboard; outside a secure context (plain http to a remote host) through a selected text area. */
async function writeClipboard(value: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(value);
      return true;
    }
  } catch {
    // fall through to the selection
  }
  const area = document.createElement('textarea');
  area.value = value;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand('copy');
  } finally {
    area.remove();
  }
}

/** A "Copy to clipboard" button that says whether it worked (announced to screen readers too). */
export function CopyButton({ value, text = 'Copy to clipboard' }: { value: string; text?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <>
      <button type="button" className={secondaryButtonClass} onClick={() => void writeClipboard(value).then((ok) => setState(ok ? 'copied' : 'failed'))}>
        {state === 'copied' ? 'Copied' : text}
      </button>
      <span aria-live="polite" className={state === 'failed' ? 'self-center text-xs text-red-800' : 'sr-only'}>
        {state === 'copied' ? 'Copied to the clipboard.' : state === 'failed' ? 'Copying failed: select the field and press Ctrl/⌘+C.' : ''}
      </span>
    </>
  );
}

export function ErrorNote({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p role="alert" className="mt-3 rounded border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {error}
    </p>
  );
}

export function Field({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="grid grid-cols-[8rem_1fr] gap-2 py-1 text-sm">
      <dt className="text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words font-mono text-slate-900">{value ?? '—'}</dd>
    </div>
  );
}

export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');

export function Loading() {
  return (
    <p className="text-slate-500" role="status">
      Loading…
    </p>
  );
}

/** "Next page" for a TanStack infinite query; renders nothing on the last page. */
export function NextPageButton({
  query,
  className = 'mt-4',
}: {
  query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> };
  className?: string;
}) {
  if (!query.hasNextPage) return null;
  return (
    <button type="button" className={`${secondaryButtonClass} ${className}`} onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
      Next page
    </button>
  );
}

/** Whether a source event still holds its conversation (retention redacts it: docs/provenance.md). */
export function RedactionBadge({ redacted }: { redacted: boolean }) {
  return (
    <span className={`rounded px-2 py-0.5 text-xs ${redacted ? 'bg-amber-100 text-amber-900' : 'bg-emerald-100 text-emerald-900'}`}>
      {redacted ? 'Payload redacted' : 'Payload kept'}
    </span>
  );
}
