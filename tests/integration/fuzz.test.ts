/**
 * A property-based fuzz suite generated from the served `/v1/openapi.json`: for every documented operation,
 * fast-check builds requests from its path parameters, query parameters and request-body schema, filled with what
 * hostile clients send — malformed JSON, wrong types, huge strings, NUL characters, unpaired surrogates, bad ids
 * and bad percent-encodings, other content types — with the credentials the operation takes (a tenant key, the
 * admin token), so the request gets past authentication to the parsing seam. Every answer must be below 500, and
 * every error must be problem+json with a stable `code` and a request id. A failure prints fast-check's seed and
 * the shrunk request, so it can be replayed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Api, servers } from './client';

type Schema = { $ref?: string; type?: string | string[]; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[]; oneOf?: Schema[] };
type Parameter = { name: string; in: 'path' | 'query' | 'header'; schema?: Schema };
type Operation = {
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
};
type Doc = { security?: Record<string, string[]>[]; paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };

/** Requests per operation per engine; FUZZ_RUNS=500 for a longer hunt. */
const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS ?? 30);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

// ---------------------------------------------------------------------------------------------------------
// hostile values
// ---------------------------------------------------------------------------------------------------------

const nasty = fc.constantFrom(
  '',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\ud83d',
  '💥'.repeat(50),
  ' '.repeat(300),
  '../../etc/passwd',
  "'; DROP TABLE memories; --",
  '${jndi:ldap://x}',
  '<script>alert(1)</script>',
  '-1',
  '1e309',
  'NaN',
  'true',
  'null',
  '00000000-0000-0000-0000-000000000000',
  'x'.repeat(70_000),
);
const text = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }), nasty);
const scalar = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(-1), fc.constant(Number.MAX_SAFE_INTEGER));
const anyJson: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('v'), { maxLength: 4 }), fc.dictionary(text, tie('v'), { maxKeys: 4 })),
})).v;

/** A value for a schema: most of the time of the declared type but hostile, sometimes of any type. */
function valueFor(schema: Schema | undefined, doc: Doc, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema, doc);
  if (!s || depth > 3) return anyJson;
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  const alternatives = [...(s.anyOf ?? []), ...(s.oneOf ?? [])];
  if (alternatives.length) return fc.oneof(anyJson, ...alternatives.map((a) => valueFor(a, doc, depth + 1)));
  if (types.includes('object') || s.properties) return fc.oneof({ weight: 4, arbitrary: objectFor(s, doc, depth + 1) }, { weight: 1, arbitrary: anyJson });
  if (types.includes('array')) return fc.oneof(fc.array(valueFor(s.items, doc, depth + 1), { maxLength: 5 }), anyJson);
  if (types.includes('string')) return fc.oneof({ weight: 4, arbitrary: text }, { weight: 1, arbitrary: anyJson });
  if (types.includes('integer') || types.includes('number')) return fc.oneof(fc.integer(), fc.double(), fc.constant(1e308), text);
  if (types.includes('boolean')) return fc.oneof(fc.boolean(), text);
  return anyJson;
}

function objectFor(s: Schema, doc: Doc, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.entries(s.properties ?? {});
  const known = fc.record(Object.fromEntries(props.map(([k, v]) => [k, valueFor(v, doc, depth)])), { requiredKeys: [] });
  return fc.tuple(known, fc.dictionary(text, anyJson, { maxKeys: 2 })).map(([a, extra]) => ({ ...extra, ...a }));
}

function resolve(schema: Schema | undefined, doc: Doc): Schema | undefined {
  if (!schema?.$ref) return schema;
  return doc.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')];
}

/** A path or query value as it goes on the wire: percent-encoded, or deliberately badly encoded. */
const encoded = (value: unknown) => {
  try {
    return encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value) ?? 'undefined');
  } catch {
    return '%ED%A0%80'; // an unpaired surrogate, as its UTF-8 bytes
  }
};
const pathValue = fc.oneof(
  fc.uuid().map(encoded),
  text.map(encoded),
  fc.constantFrom('%', '%zz', '%C3', '%ED%A0%80', '%00', '..', '%2e%2e', 'a%2Fb', '%uD800'),
);

const body = (op: Operation, doc: Doc) => {
  const schema = op.requestBody?.content['application/json']?.schema;
  return fc.oneof(
    { weight: 6, arbitrary: valueFor(schema ?? { type: 'object' }, doc).map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 2, arbitrary: anyJson.map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 2, arbitrary: fc.constantFrom('{', 'not json', '', '{"a":', '[1,2', '\u0000', '{"messages": [}', '{"a": 1}}', 'x'.repeat(1_100_000)) },
  );
};

// ---------------------------------------------------------------------------------------------------------

describe.each(servers())('OpenAPI-driven fuzzing on $name', (server) => {
  it('answers every documented operation below 500, and every error as problem+json with a code and request id', async () => {
    const root = new Api(server);
    const doc = (await root.get('/v1/openapi.json')).body as Doc;
    const { api_key: tenantKey } = await root.createTenant();
    const credentials = (op: Operation): Record<string, string> => {
      const schemes = new Set((op.security ?? doc.security ?? []).flatMap((s) => Object.keys(s)));
      if (schemes.has('ApiKey')) return { authorization: `ApiKey ${tenantKey}` };
      if (schemes.has('AdminToken')) return { authorization: `Bearer ${server.adminToken}` };
      return {};
    };

    let operations = 0;
    let requests = 0;
    const statuses = new Map<number, number>();
    for (const [template, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        if (!METHODS.includes(method)) continue;
        operations++;
        const params = op.parameters ?? [];
        const pathParams = params.filter((p) => p.in === 'path');
        const queryParams = params.filter((p) => p.in === 'query');
        const request = fc.record({
          path: fc.tuple(...pathParams.map(() => pathValue)),
          query: fc.tuple(...queryParams.map((p) => fc.option(valueFor(p.schema, doc).map(encoded), { nil: undefined }))),
          extraQuery: fc.option(fc.tuple(text.map(encoded), text.map(encoded)), { nil: undefined }),
          body: method === 'get' || method === 'delete' ? fc.constant(undefined) : body(op, doc),
          contentType: fc.constantFrom('application/json', 'application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded'),
        });
        await fc.assert(
          fc.asyncProperty(request, async (r) => {
            let p = template;
            pathParams.forEach((param, i) => (p = p.replace(`{${param.name}}`, r.path[i])));
            const query = queryParams.flatMap((param, i) => (r.query[i] === undefined ? [] : [`${param.name}=${r.query[i]}`]));
            if (r.extraQuery) query.push(`${r.extraQuery[0]}=${r.extraQuery[1]}`);
            const url = `${server.baseUrl}${p}${query.length ? `?${query.join('&')}` : ''}`;
            const res = await fetch(url, {
              method: method.toUpperCase(),
              headers: { ...credentials(op), ...(r.body === undefined ? {} : { 'content-type': r.contentType }) },
              body: r.body,
            });
            requests++;
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
            const raw = await res.text();
            const where = `${method.toUpperCase()} ${url.slice(0, 300)} → ${res.status} ${raw.slice(0, 300)}`;
            expect(res.status, where).toBeLessThan(500);
            if (res.status >= 400) {
              expect(res.headers.get('content-type'), where).toContain('application/problem+json');
              expect(res.headers.get('x-request-id'), where).toBeTruthy();
              const problem = JSON.parse(raw) as { code?: unknown; status?: unknown };
              expect(typeof problem.code, where).toBe('string');
              expect(problem.status, where).toBe(res.status);
            }
          }),
          { numRuns: RUNS_PER_OPERATION },
        );
      }
    }
    console.log(`fuzz ${server.name}: ${operations} operations, ${requests} requests, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`);
    // the document was read and every operation fuzzed
    expect(operations).toBeGreaterThan(40);
    expect(requests).toBeGreaterThanOrEqual(operations * RUNS_PER_OPERATION);
    // the requests reached past authentication: most answers are validation errors, not 401
    expect(statuses.get(401) ?? 0).toBeLessThan(requests / 2);
  }, 600_000);
});
