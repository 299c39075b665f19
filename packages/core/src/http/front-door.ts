/**
 * Checks the HTTP server (apps/web/server.ts) makes before a request reaches Next.js, for the answers Next.js
 * would otherwise give by itself without problem+json or a request id (docs/operations.md, "Malformed requests"):
 * a path whose percent-encoding cannot be decoded (Next.js answers a plain-text 500) and a method a documented
 * path does not have (Next.js answers an empty 405).
 */

/** True when the path part of a request target has a percent-encoding that does not decode to UTF-8 text. */
export function undecodablePath(target: string): boolean {
  const q = target.indexOf('?');
  try {
    decodeURIComponent(q === -1 ? target : target.slice(0, q));
    return false;
  } catch {
    return true;
  }
}

/**
 * True when a segment of the path is `.` or `..`, written plainly or percent-encoded (`%2e%2e`). Next.js resolves
 * them before routing, so `/v1/memories/%2e%2e` would leave /v1 and reach a page; the API refuses them instead.
 */
export function dotSegments(target: string): boolean {
  const q = target.indexOf('?');
  const path = q === -1 ? target : target.slice(0, q);
  return path.split('/').some((segment) => {
    const s = segment.replace(/%2e/gi, '.');
    return s === '.' || s === '..';
  });
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface Template {
  segments: (string | null)[];
  methods: string[];
}

/**
 * The methods of the documented path a pathname routes to, from an OpenAPI `paths` object; null when no
 * documented path matches (Next.js routes it: a page, or the /v1 catch-all's 404). Like the router, a literal
 * segment wins over a `{parameter}` at the first place they differ, so `/v1/memories/add` is not taken for
 * `/v1/memories/{id}`. GET implies HEAD; OPTIONS is left to Next.js.
 */
export function methodTable(paths: Record<string, Record<string, unknown>>): (pathname: string) => string[] | null {
  const templates: Template[] = Object.entries(paths).map(([template, ops]) => {
    const methods = HTTP_METHODS.filter((m) => Object.hasOwn(ops, m)).map((m) => m.toUpperCase());
    if (methods.includes('GET')) methods.push('HEAD');
    return { segments: template.split('/').map((s) => (/^\{[^}]+\}$/.test(s) ? null : s)), methods };
  });
  return (pathname) => {
    const parts = pathname.replace(/\/+$/, '').split('/');
    let best: Template | null = null;
    for (const t of templates) {
      if (t.segments.length !== parts.length) continue;
      if (!t.segments.every((s, i) => s === null || s === parts[i])) continue;
      if (!best || moreSpecific(t, best)) best = t;
    }
    return best ? best.methods : null;
  };
}

function moreSpecific(a: Template, b: Template): boolean {
  for (let i = 0; i < a.segments.length; i++) {
    const aLiteral = a.segments[i] !== null;
    const bLiteral = b.segments[i] !== null;
    if (aLiteral !== bLiteral) return aLiteral;
  }
  return false;
}
