/** A description rendered from markdown (render-markdown.ts: raw HTML escaped). */
import { renderMarkdown } from './render-markdown';

const STYLE =
  'space-y-2 [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_code]:text-[0.85em] [&_a]:text-blue-700 [&_a]:underline [&_ul]:list-disc [&_ul]:pl-5';

export function Markdown({ text, inline = false, className = '' }: { text: string; inline?: boolean; className?: string }) {
  const html = { __html: renderMarkdown(text, inline) };
  return inline ? <span className={`${STYLE} ${className}`} dangerouslySetInnerHTML={html} /> : <div className={`${STYLE} ${className}`} dangerouslySetInnerHTML={html} />;
}
