/**
 * The curl and TypeScript examples of an operation, built from its request example in the OpenAPI document (path
 * parameters, query, body, Idempotency-Key) and its security requirement: each scheme's header with the credential
 * from an environment variable. The TypeScript example calls @memory/client when the client has a method for the
 * operation (client-calls.ts), else `fetch`.
 */
import { CLIENT_CALLS, type ClientArg } from './client-calls';
import { type DocumentedOperation, type Security, bodyExample } from './model';

/** Where the examples send their requests: `npm start` and `npm run dev` listen here by default. */
export const EXAMPLE_BASE_URL = 'http://localhost:3000';

/** The credential each security scheme sends, and the environment variable the examples read it from. */
export const CREDENTIALS = {
  ApiKey: { label: 'tenant API key', header: 'Authorization', prefix: 'ApiKey ', env: 'MEMORY_API_KEY' },
  AgentKey: { label: 'agent key', header: 'Authorization', prefix: 'ApiKey ', env: 'MEMORY_AGENT_KEY' },
  ServiceUui: { label: 'the user’s X-Service-UUI token', header: 'X-Service-UUI', prefix: '', env: 'MEMORY_SERVICE_UUI' },
  AdminToken: { label: 'admin token', header: 'Authorization', prefix: 'Bearer ', env: 'MEMORY_ADMIN_TOKEN' },
  PassportSession: { label: 'passport session', header: 'Authorization', prefix: 'Bearer ', env: 'MEMORY_PASSPORT_SESSION' },
} as const;

type Scheme = keyof typeof CREDENTIALS;

/**
 * The schemes of the first requirement. With `X-Service-UUI` the `ApiKey` is the agent's key (the universal store is
 * called by global agents), so the examples read it from MEMORY_AGENT_KEY.
 */
export function schemesOf(security: Security): Scheme[] {
  const names = Object.keys(security[0] ?? {}) as Scheme[];
  return names.includes('ServiceUui') ? names.map((n) => (n === 'ApiKey' ? 'AgentKey' : n)) : names;
}

const query = ({ op }: DocumentedOperation) => (op.parameters ?? []).filter((p) => p.in === 'query' && p.example !== undefined);

/** The path with the example's path parameters, URL-encoded, and its query string. */
export function exampleUrl(documented: DocumentedOperation): string {
  const params = documented.op.parameters ?? [];
  const filled = documented.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(params.find((p) => p.in === 'path' && p.name === name)?.example ?? name)),
  );
  const search = new URLSearchParams(query(documented).map((p) => [p.name, String(p.example)]));
  return `${EXAMPLE_BASE_URL}${filled}${search.size ? `?${search}` : ''}`;
}

const idempotencyKey = (op: DocumentedOperation) => op.op.parameters?.find((p) => p.in === 'header' && p.name === 'Idempotency-Key')?.example;
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function curlExample(op: DocumentedOperation): string {
  const body = bodyExample(op.op);
  const key = idempotencyKey(op);
  const lines = [`curl${op.method === 'get' ? '' : ` -X ${op.method.toUpperCase()}`} "${exampleUrl(op)}"`];
  for (const s of schemesOf(op.security)) lines.push(`-H "${CREDENTIALS[s].header}: ${CREDENTIALS[s].prefix}$${CREDENTIALS[s].env}"`);
  if (key !== undefined) lines.push(`-H "Idempotency-Key: ${String(key)}"`);
  if (body !== undefined) lines.push('-H "Content-Type: application/json"', `-d ${shellQuote(JSON.stringify(body, null, 2))}`);
  return lines.join(' \\\n  ');
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A value as a TypeScript literal: unquoted keys where possible, single-quoted strings, two-space indent. */
export function tsLiteral(value: unknown, indent = ''): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((v) => tsLiteral(v, inner));
    const flat = `[${items.join(', ')}]`;
    return flat.length <= 60 && !flat.includes('\n') ? flat : `[\n${items.map((i) => inner + i).join(',\n')},\n${indent}]`;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const props = entries.map(([k, v]) => `${IDENTIFIER.test(k) ? k : `'${k}'`}: ${tsLiteral(v, inner)}`);
    return `{\n${props.map((p) => inner + p).join(',\n')},\n${indent}}`;
  }
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  return JSON.stringify(value);
}

function argument(arg: ClientArg, op: DocumentedOperation): string {
  if (arg === 'uui') return `process.env.${CREDENTIALS.ServiceUui.env}!`;
  if (arg === 'body') return tsLiteral(bodyExample(op.op));
  if (arg === 'query') return tsLiteral(Object.fromEntries(query(op).map((p) => [p.name, p.example])));
  return tsLiteral(op.op.parameters?.find((p) => p.in === 'path' && p.name === arg.path)?.example);
}

export function typescriptExample(op: DocumentedOperation): string {
  const schemes = schemesOf(op.security);
  const client = CLIENT_CALLS[op.op.operationId];
  if (client) {
    const key = schemes.find((s) => s === 'ApiKey' || s === 'AgentKey');
    const args = client.args.map((a) => argument(a, op)).join(', ');
    return [
      "import { MemoryClient } from '@memory/client';",
      '',
      `const memory = new MemoryClient({ baseUrl: '${EXAMPLE_BASE_URL}'${key ? `, apiKey: process.env.${CREDENTIALS[key].env}` : ''} });`,
      '',
      `const result = await memory.${client.method}(${args});`,
    ].join('\n');
  }
  const body = bodyExample(op.op);
  const headers = schemes.map((s) => `${IDENTIFIER.test(CREDENTIALS[s].header) ? CREDENTIALS[s].header : `'${CREDENTIALS[s].header}'`}: \`${CREDENTIALS[s].prefix}\${process.env.${CREDENTIALS[s].env}}\``);
  if (body !== undefined) headers.push("'Content-Type': 'application/json'");
  const init = [
    ...(op.method === 'get' ? [] : [`method: '${op.method.toUpperCase()}'`]),
    ...(headers.length ? [`headers: { ${headers.join(', ')} }`] : []),
    ...(body !== undefined ? [`body: JSON.stringify(${tsLiteral(body, '  ')})`] : []),
  ];
  return [
    `const res = await fetch('${exampleUrl(op)}'${init.length ? `, {\n${init.map((l) => `  ${l},`).join('\n')}\n}` : ''});`,
    'if (!res.ok) throw new Error(`${res.status} ${(await res.json()).code}`);',
    'const result = await res.json();',
  ].join('\n');
}
