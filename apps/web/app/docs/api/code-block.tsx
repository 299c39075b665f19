/** A code example: scrolls sideways inside itself, so a long line never widens the page; focusable to scroll by keyboard. */
export function CodeBlock({ label, code }: { label: string; code: string }) {
  return (
    <figure className="mt-3 min-w-0">
      <figcaption className="text-xs font-semibold uppercase tracking-wide text-slate-500">{label}</figcaption>
      <pre
        tabIndex={0}
        aria-label={label}
        className="mt-1 max-w-full overflow-x-auto rounded-md bg-slate-900 p-3 text-xs leading-relaxed text-slate-100"
      >
        <code>{code}</code>
      </pre>
    </figure>
  );
}
