import type { Metadata } from 'next';
import { buildOpenApiDocument, resolveSchema } from '@/lib/openapi';

export const metadata: Metadata = { title: 'API reference · Memory Service' };

type Operation = {
  operationId: string;
  summary: string;
  description?: string;
  parameters?: { name: string; in: string; required: boolean; schema?: Record<string, unknown> }[];
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Record<string, unknown> }> }>;
};

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  description?: string;
  enum?: unknown[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  maximum?: number;
  minimum?: number;
  maxLength?: number;
  default?: unknown;
}

const DOC = buildOpenApiDocument();

function typeOf(raw: JsonSchema): string {
  const s = resolveSchema(DOC, raw as Record<string, unknown>) as JsonSchema & { $ref?: string };
  if ((raw as { $ref?: string }).$ref) return ((raw as { $ref?: string }).$ref as string).split('/').pop() as string;
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (s.anyOf) return s.anyOf.map(typeOf).join(' or ');
  if (s.type === 'array' && s.items) return `array of ${typeOf(s.items)}`;
  return Array.isArray(s.type) ? s.type.join(' or ') : (s.type ?? 'any');
}

function constraints(s: JsonSchema): string {
  const parts: string[] = [];
  if (s.default !== undefined) parts.push(`default ${JSON.stringify(s.default)}`);
  if (s.minimum !== undefined) parts.push(`min ${s.minimum}`);
  if (s.maximum !== undefined) parts.push(`max ${s.maximum}`);
  if (s.maxLength !== undefined) parts.push(`max length ${s.maxLength}`);
  return parts.join(', ');
}

function Fields({ schema: raw }: { schema: JsonSchema }) {
  const schema = resolveSchema(DOC, raw as Record<string, unknown>) as JsonSchema;
  const props = schema.properties ?? {};
  return (
    <table className="mt-2 w-full border-collapse text-sm">
      <thead>
        <tr className="border-b text-left text-slate-500">
          <th className="py-1 pr-4">Field</th>
          <th className="py-1 pr-4">Type</th>
          <th className="py-1 pr-4">Required</th>
          <th className="py-1">Notes</th>
        </tr>
      </thead>
      <tbody>
        {Object.entries(props).map(([name, p]) => (
          <tr key={name} className="border-b border-slate-100 align-top">
            <td className="py-1 pr-4 font-mono">{name}</td>
            <td className="py-1 pr-4">{typeOf(p)}</td>
            <td className="py-1 pr-4">{schema.required?.includes(name) ? 'yes' : 'no'}</td>
            <td className="py-1">{[p.description, constraints(p)].filter(Boolean).join(' · ')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default function ApiReference() {
  const doc = DOC;
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods as Record<string, Operation>).map(([method, op]) => ({ path, method, op })),
  );
  return (
    <main className="mx-auto max-w-4xl px-6 py-12">
      <h1 className="text-3xl font-semibold">{doc.info.title}</h1>
      <p className="mt-3 text-slate-600">{doc.info.description}</p>
      <p className="mt-2 text-sm">
        Machine-readable: <a className="text-blue-700 underline" href="/v1/openapi.json">/v1/openapi.json</a> (OpenAPI {doc.openapi}).
        Authenticate with <code>Authorization: ApiKey &lt;key&gt;</code>.
      </p>
      <nav className="mt-6 text-sm">
        <ul className="space-y-1">
          {ops.map(({ path, method, op }) => (
            <li key={op.operationId}>
              <a className="text-blue-700 underline" href={`#${op.operationId}`}>
                <span className="font-mono uppercase">{method}</span> <span className="font-mono">{path}</span>
              </a>{' '}
              — {op.summary}
            </li>
          ))}
        </ul>
      </nav>
      {ops.map(({ path, method, op }) => {
        const body = op.requestBody ? Object.values(op.requestBody.content)[0]?.schema : null;
        return (
          <section key={op.operationId} id={op.operationId} className="mt-10 border-t pt-6">
            <h2 className="font-mono text-lg">
              <span className="mr-2 rounded bg-slate-800 px-2 py-0.5 text-sm uppercase text-white">{method}</span>
              {path}
            </h2>
            <p className="mt-2 font-medium">{op.summary}</p>
            {op.description ? <p className="mt-1 text-sm text-slate-600">{op.description}</p> : null}
            {op.parameters?.length ? (
              <>
                <h3 className="mt-4 font-semibold">Parameters</h3>
                <Fields
                  schema={{
                    properties: Object.fromEntries(op.parameters.map((p) => [`${p.name} (${p.in})`, (p.schema ?? {}) as JsonSchema])),
                    required: op.parameters.filter((p) => p.required).map((p) => `${p.name} (${p.in})`),
                  }}
                />
              </>
            ) : null}
            {body ? (
              <>
                <h3 className="mt-4 font-semibold">Request body</h3>
                <Fields schema={body as JsonSchema} />
              </>
            ) : null}
            <h3 className="mt-4 font-semibold">Responses</h3>
            <ul className="mt-1 text-sm">
              {Object.entries(op.responses).map(([status, r]) => (
                <li key={status}>
                  <span className="font-mono">{status}</span> — {r.description}
                  {status.startsWith('2') && r.content ? (
                    <Fields schema={Object.values(r.content)[0]?.schema as JsonSchema} />
                  ) : null}
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </main>
  );
}
