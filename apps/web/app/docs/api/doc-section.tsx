/** A top-level part of the reference (authentication, a tag, the schemas): a linkable h2 and its markdown introduction. */
import type { ReactNode } from 'react';
import { Markdown } from './markdown';

export function DocSection({ id, title, intro, children }: { id: string; title: string; intro: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="mt-12 scroll-mt-4">
      <h2 id={`${id}-title`} className="text-2xl font-semibold">
        {title}
      </h2>
      <Markdown className="mt-2 text-sm text-slate-700" text={intro} />
      {children}
    </section>
  );
}
