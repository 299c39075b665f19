/**
 * Every operation has a request example that its own zod schemas accept, and the OpenAPI document carries the
 * examples, a tag per operation (one of the document's tags) and `servers`.
 */
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from './openapi';
import { API_AREAS } from './openapi-areas';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const operations = API_AREAS.flatMap((area) => area.operations.map((op) => ({ area, op, example: area.examples[op.operationId] })));

type Doc = {
  servers: { url: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Record<string, any>>>;
};

describe('request examples', () => {
  it('cover every operation, and only operations', () => {
    expect(operations.length).toBeGreaterThan(50);
    for (const { area, op, example } of operations) expect(example, `${area.tag}: ${op.operationId}`).toBeDefined();
    for (const area of API_AREAS) expect(Object.keys(area.examples).sort()).toEqual(area.operations.map((o) => o.operationId).sort());
  });

  it.each(operations.map((o) => [o.op.operationId, o] as const))('%s: the body and query parse with the operation’s schemas', (_, { op, example }) => {
    if (op.body) {
      const parsed = op.body.safeParse(example.body);
      expect(parsed.error?.issues ?? []).toEqual([]);
    } else expect(example.body).toBeUndefined();
    if (op.query) {
      // a query arrives as strings: the example must parse as its URL would send it
      const asSent = Object.fromEntries(Object.entries(example.query ?? {}).map(([k, v]) => [k, String(v)]));
      expect(op.query.safeParse(asSent).error?.issues ?? []).toEqual([]);
    } else expect(example.query).toBeUndefined();
    const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map(([, n]) => n);
    expect(Object.keys(example.params ?? {}).sort()).toEqual([...names].sort());
    for (const name of names) {
      const value = example.params?.[name] as string;
      if (op.pathTypes?.[name] === 'text') expect(value.length).toBeGreaterThan(0);
      else expect(value).toMatch(UUID);
    }
  });
});

describe('the OpenAPI document', () => {
  const doc = buildOpenApiDocument() as unknown as Doc;

  it('declares servers and one described tag per area', () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(doc.tags.map((t) => t.name)).toEqual(API_AREAS.map((a) => a.tag));
    for (const t of doc.tags) expect(t.description.length).toBeGreaterThan(20);
  });

  it('tags each operation with its area and carries its request example', () => {
    for (const { area, op, example } of operations) {
      const documented = doc.paths[op.path][op.method];
      expect(documented.tags, op.operationId).toEqual([area.tag]);
      if (op.body) expect(documented.requestBody.content['application/json'].examples.default.value).toEqual(example.body);
      for (const p of documented.parameters ?? []) {
        const expected = p.in === 'path' ? example.params?.[p.name] : p.in === 'query' ? example.query?.[p.name] : p.example;
        expect(p.example, `${op.operationId} ${p.in} ${p.name}`).toEqual(expected);
        if (p.required) expect(p.example, `${op.operationId}: required ${p.name}`).toBeDefined();
      }
    }
  });
});
