/**
 * Markdown of the document's descriptions (ours, from the operation and schema declarations) as HTML, with marked
 * on the server. Raw HTML in the text is shown as text, not interpreted: escape by default.
 */
import { Marked } from 'marked';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

const marked = new Marked({
  gfm: true,
  async: false,
  renderer: { html: ({ text }) => escapeHtml(text) },
});

/** The HTML of `text`: a block (paragraphs, lists) or, with `inline`, phrasing content only. */
export function renderMarkdown(text: string, inline = false): string {
  return (inline ? marked.parseInline(text) : marked.parse(text)) as string;
}
