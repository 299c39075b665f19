/**
 * The contents: every tag with its operations, then the schemas. On a wide screen a sticky column beside the
 * reference; on a phone a collapsed <details> above it (the same links, one of the two is displayed).
 */
import { breakable } from './breakable';
import { type TagGroup } from './model';
import { MethodBadge } from './operation-section';

function Links({ groups }: { groups: TagGroup[] }) {
  return (
    <ul className="space-y-4 text-sm">
      <li>
        <a className="font-semibold text-slate-900 hover:underline" href="#authentication">
          Authentication
        </a>
      </li>
      {groups.map((g) => (
        <li key={g.name}>
          <a className="font-semibold text-slate-900 hover:underline" href={`#${g.anchor}`}>
            {g.name}
          </a>
          <ul className="mt-1 space-y-1">
            {g.operations.map(({ path, method, op }) => (
              <li key={op.operationId}>
                <a className="flex items-baseline gap-1.5 text-slate-700 hover:text-blue-700 hover:underline" href={`#${op.operationId}`}>
                  <MethodBadge method={method} />
                  <span className="font-mono text-xs [overflow-wrap:anywhere]">{breakable(path)}</span>
                </a>
              </li>
            ))}
          </ul>
        </li>
      ))}
      <li>
        <a className="font-semibold text-slate-900 hover:underline" href="#schemas">
          Schemas
        </a>
      </li>
    </ul>
  );
}

export function Sidebar({ groups }: { groups: TagGroup[] }) {
  return (
    <>
      <details className="border-b border-slate-200 bg-white px-4 py-3 lg:hidden">
        <summary className="cursor-pointer font-semibold">Contents</summary>
        <nav aria-label="API reference contents" className="mt-3">
          <Links groups={groups} />
        </nav>
      </details>
      <nav
        aria-label="API reference"
        className="hidden border-r border-slate-200 bg-white px-4 py-6 lg:sticky lg:top-0 lg:block lg:h-screen lg:overflow-y-auto"
      >
        <a className="mb-4 block text-lg font-semibold" href="#top">
          Memory Service API
        </a>
        <Links groups={groups} />
      </nav>
    </>
  );
}
