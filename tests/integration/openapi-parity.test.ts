/**
 * Route files and the generated OpenAPI document agree: every method a route file under apps/web/app/v1 exports is
 * a documented operation of /v1/openapi.json, and every documented operation under /v1 has its route file — so an
 * endpoint cannot ship undocumented, nor be documented without existing. Not operations: the catch-all `[...rest]`
 * route, which answers unknown /v1 paths with 404 problem+json, and GET /v1/openapi.json, the document itself.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Api, servers } from './client';
import { ROOT } from './server';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** `METHOD /v1/a/{id}` for every method exported by every route file below apps/web/app/v1. */
function routeOperations(): string[] {
  const base = path.join(ROOT, 'apps/web/app');
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === 'route.ts') {
        const segments = path.relative(base, dir).split(path.sep);
        if (segments.some((s) => s.startsWith('[...'))) continue;
        const template = `/${segments.map((s) => s.replace(/^\[(.+)\]$/, '{$1}')).join('/')}`;
        const source = readFileSync(full, 'utf8');
        for (const m of METHODS) if (new RegExp(`export (const|async function|function) ${m}\\b|\\bas ${m}\\b`).test(source)) out.push(`${m} ${template}`);
      }
    }
  };
  walk(path.join(base, 'v1'));
  return out.sort();
}

describe('route files and the OpenAPI document', () => {
  it('name the same operations', async () => {
    const doc = (await new Api(servers()[0]).get('/v1/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths)
      .filter(([template]) => template.startsWith('/v1/'))
      .flatMap(([template, ops]) => Object.keys(ops).filter((m) => METHODS.includes(m.toUpperCase() as (typeof METHODS)[number])).map((m) => `${m.toUpperCase()} ${template}`))
      .sort();
    const routes = routeOperations().filter((r) => r !== 'GET /v1/openapi.json');
    expect(routes.length).toBeGreaterThan(50);
    expect({ undocumented: routes.filter((r) => !documented.includes(r)), withoutRoute: documented.filter((d) => !routes.includes(d)) }).toEqual({
      undocumented: [],
      withoutRoute: [],
    });
  });

  it('tags every operation with a declared tag, gives each request an example, and names the server', async () => {
    // The examples parse with the operations' own zod schemas: apps/web/lib/openapi-examples.test.ts (unit).
    type Op = { tags?: string[]; parameters?: { in: string; name: string; required: boolean; example?: unknown }[]; requestBody?: any };
    const doc = (await new Api(servers()[0]).get('/v1/openapi.json')).body as {
      servers: { url: string }[];
      tags: { name: string; description: string }[];
      paths: Record<string, Record<string, Op>>;
    };
    expect(doc.servers.length).toBeGreaterThan(0);
    expect(doc.servers[0].url).toBe('/');
    const tags = doc.tags.map((t) => t.name);
    expect(tags.length).toBeGreaterThanOrEqual(9);
    for (const t of doc.tags) expect(t.description, t.name).not.toBe('');
    const missing: string[] = [];
    for (const [template, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const name = `${method.toUpperCase()} ${template}`;
        if (op.tags?.length !== 1 || !tags.includes(op.tags[0])) missing.push(`${name}: tag`);
        if (op.requestBody && op.requestBody.content['application/json']?.examples?.default?.value === undefined) missing.push(`${name}: body example`);
        for (const p of op.parameters ?? []) if ((p.required || p.in === 'path') && p.example === undefined) missing.push(`${name}: ${p.in} ${p.name} example`);
      }
    }
    expect(missing).toEqual([]);
  });
});
