/** The curl and TypeScript examples: each security scheme's header, the body as the example, literals that parse back. */
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './render-markdown';
import { type DocumentedOperation, bodyExample, tagGroups } from './model';
import { curlExample, exampleUrl, tsLiteral, typescriptExample } from './request-examples';

const operations = new Map(tagGroups().flatMap((g) => g.operations.map((d) => [d.op.operationId, d] as const)));
const op = (id: string) => operations.get(id) as DocumentedOperation;

/** The JSON after `-d '…'`, undoing the shell quoting. */
const curlBody = (curl: string) => JSON.parse((/-d '([\s\S]*)'$/.exec(curl)?.[1] ?? 'null').replace(/'\\''/g, "'"));

describe('curl examples', () => {
  it.each([
    ['addMemories', ['Authorization: ApiKey $MEMORY_API_KEY', 'Idempotency-Key: ']],
    ['retrieveUniversalMemories', ['Authorization: ApiKey $MEMORY_AGENT_KEY', 'X-Service-UUI: $MEMORY_SERVICE_UUI']],
    ['exchangeLinkToken', ['Authorization: ApiKey $MEMORY_AGENT_KEY']],
    ['createTenant', ['Authorization: Bearer $MEMORY_ADMIN_TOKEN']],
    ['listGrants', ['Authorization: Bearer $MEMORY_PASSPORT_SESSION']],
  ])('%s sends %o', (id, headers) => {
    const curl = curlExample(op(id));
    for (const h of headers) expect(curl).toContain(`-H "${h}`);
  });

  it('send no credentials to an open operation', () => {
    expect(curlExample(op('health'))).toBe('curl "http://localhost:3000/v1/health"');
    expect(curlExample(op('sendPassportCode'))).not.toContain('Authorization');
  });

  it('send the request example as the body, quoted for the shell, for every operation with a body', () => {
    for (const d of operations.values()) {
      const curl = curlExample(d);
      expect(curl.startsWith(d.method === 'get' ? 'curl "' : `curl -X ${d.method.toUpperCase()} "`)).toBe(true);
      if (d.op.requestBody) expect(curlBody(curl)).toEqual(bodyExample(d.op));
      else expect(curl).not.toContain(' -d ');
    }
  });

  it('fill path parameters and the query from the example, URL-encoded', () => {
    expect(exampleUrl(op('getCustomerProfile'))).toBe('http://localhost:3000/v1/tenant/customers/customer_8841');
    expect(exampleUrl(op('listMemories'))).toBe('http://localhost:3000/v1/memories?external_user_id=user_42&limit=20&category=preference');
    expect(exampleUrl({ ...op('getCustomerProfile'), op: { ...op('getCustomerProfile').op, parameters: [{ name: 'external_user_id', in: 'path', required: true, example: 'a b/c' }] } })).toBe(
      'http://localhost:3000/v1/tenant/customers/a%20b%2Fc',
    );
  });
});

describe('TypeScript examples', () => {
  it('use the client where it has a method, with the agent key for the universal store', () => {
    expect(typescriptExample(op('addMemories'))).toContain('await memory.memories.add({');
    const universal = typescriptExample(op('getUniversalJob'));
    expect(universal).toContain('apiKey: process.env.MEMORY_AGENT_KEY');
    expect(universal).toContain('memory.universal.getJob(process.env.MEMORY_SERVICE_UUI!, ');
  });

  it('use fetch with the scheme’s header where the client has no method', () => {
    const ts = typescriptExample(op('createConsoleAdmin'));
    expect(ts).toContain("fetch('http://localhost:3000/v1/admin/tenants/");
    expect(ts).toContain('Authorization: `Bearer ${process.env.MEMORY_ADMIN_TOKEN}`');
    expect(ts).toContain("method: 'POST'");
  });

  it('write values as literals that evaluate back to them', () => {
    for (const v of [{ a: 1, 'b-c': ["it's", null, true], d: { e: [] }, f: {} }, 'x\\y', [{ role: 'user', content: 'Hi' }]]) {
      expect(new Function(`return ${tsLiteral(v)}`)()).toEqual(v);
    }
    for (const d of operations.values()) if (d.op.requestBody) expect(new Function(`return ${tsLiteral(bodyExample(d.op))}`)()).toEqual(bodyExample(d.op));
  });
});

describe('descriptions', () => {
  it('render markdown and show raw HTML as text', () => {
    expect(renderMarkdown('Send `Idempotency-Key` **once**.')).toBe('<p>Send <code>Idempotency-Key</code> <strong>once</strong>.</p>\n');
    expect(renderMarkdown('a <script>alert(1)</script> b', true)).toBe('a &lt;script&gt;alert(1)&lt;/script&gt; b');
    expect(renderMarkdown('<img src=x onerror=alert(1)>')).not.toContain('<img');
  });
});
