/**
 * One operation: method and path, summary, rendered description, who may call it, parameters, request body fields
 * (types linked to their schemas), responses with their schemas, and the request example as JSON, curl and TypeScript.
 */
import { breakable } from './breakable';
import { CodeBlock } from './code-block';
import { type FieldRow, FieldsTable, objectRows } from './fields';
import { Markdown } from './markdown';
import { type DocumentedOperation, type MediaType, bodyExample, resolve } from './model';
import { CREDENTIALS, curlExample, schemesOf, typescriptExample } from './request-examples';
import { TypeLabel } from './schema-type';

const METHOD_COLOURS: Record<string, string> = {
  get: 'bg-emerald-700',
  post: 'bg-blue-700',
  put: 'bg-amber-700',
  patch: 'bg-amber-700',
  delete: 'bg-red-700',
};

export function MethodBadge({ method }: { method: string }) {
  return (
    <span className={`inline-block rounded px-1.5 py-0.5 font-mono text-xs font-semibold uppercase text-white ${METHOD_COLOURS[method] ?? 'bg-slate-700'}`}>
      {method}
    </span>
  );
}

function Auth({ documented }: { documented: DocumentedOperation }) {
  const schemes = schemesOf(documented.security);
  return (
    <p className="mt-3 text-sm">
      <span className="font-semibold">Authentication: </span>
      {schemes.length === 0
        ? 'none'
        : schemes.map((s, i) => (
            <span key={s}>
              {i > 0 ? ' and ' : null}
              <a className="text-blue-700 underline" href="#authentication">
                {CREDENTIALS[s].label}
              </a>{' '}
              <code className="rounded bg-slate-100 px-1 text-[0.85em] [overflow-wrap:anywhere]">
                {CREDENTIALS[s].header}: {CREDENTIALS[s].prefix}${CREDENTIALS[s].env}
              </code>
            </span>
          ))}
    </p>
  );
}

/** A response or request body schema: a link when it is a component, its fields when it is an inline object. */
function Body({ media, caption }: { media: MediaType; caption: string }) {
  const { schema } = media;
  if (schema.properties && !schema.$ref) return <FieldsTable caption={caption} rows={objectRows(schema)} />;
  return (
    <p className="mt-1 text-sm">
      <TypeLabel schema={schema} />
    </p>
  );
}

export function OperationSection({ documented }: { documented: DocumentedOperation }) {
  const { path, method, op } = documented;
  const parameters: FieldRow[] = (op.parameters ?? []).map((p) => ({ name: p.name, schema: p.schema ?? {}, required: p.required, location: p.in }));
  const body = op.requestBody?.content['application/json'];
  const example = bodyExample(op);
  return (
    <section id={op.operationId} aria-labelledby={`${op.operationId}-title`} className="scroll-mt-4 border-t border-slate-200 pt-6">
      <h3 id={`${op.operationId}-title`} className="flex flex-wrap items-baseline gap-2 font-mono text-base font-semibold">
        <MethodBadge method={method} />
        <span className="min-w-0 [overflow-wrap:anywhere]">{breakable(path)}</span>
      </h3>
      <div className="mt-2 gap-8 xl:grid xl:grid-cols-[minmax(0,1fr)_minmax(0,26rem)]">
        <div className="min-w-0">
          <Markdown className="font-medium" text={op.summary} />
          {op.description ? <Markdown className="mt-2 text-sm text-slate-700" text={op.description} /> : null}
          <Auth documented={documented} />
          {parameters.length ? (
            <>
              <h4 className="mt-4 text-sm font-semibold">Parameters</h4>
              <FieldsTable caption={`Parameters of ${op.operationId}`} rows={parameters} />
            </>
          ) : null}
          {body ? (
            <>
              <h4 className="mt-4 text-sm font-semibold">
                Request body <span className="font-normal">(<TypeLabel schema={body.schema} />)</span>
              </h4>
              <FieldsTable caption={`Request body of ${op.operationId}`} rows={objectRows(resolve(body.schema))} />
            </>
          ) : null}
          <h4 className="mt-4 text-sm font-semibold">Responses</h4>
          <ul className="mt-1 space-y-3 text-sm">
            {Object.entries(op.responses).map(([status, r]) => {
              const [type, media] = Object.entries(r.content ?? {})[0] ?? [];
              return (
                <li key={status}>
                  <span className={`font-mono font-semibold ${status.startsWith('2') ? 'text-emerald-700' : 'text-red-700'}`}>{status}</span>{' '}
                  <Markdown inline text={r.description} />
                  {media ? (
                    <div className="mt-1 pl-4">
                      <span className="text-xs text-slate-500">{type}</span>
                      <Body media={media} caption={`Response ${status} of ${op.operationId}`} />
                    </div>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </div>
        <div className="min-w-0">
          {example !== undefined ? <CodeBlock label="Request example (JSON)" code={JSON.stringify(example, null, 2)} /> : null}
          <CodeBlock label="curl" code={curlExample(documented)} />
          <CodeBlock label="TypeScript" code={typescriptExample(documented)} />
        </div>
      </div>
    </section>
  );
}
