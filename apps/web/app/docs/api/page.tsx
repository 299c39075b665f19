/**
 * The API reference (/docs/api), rendered on the server from the OpenAPI document (model.ts): a sidebar by tag, each
 * operation with its fields, responses and examples (operation-section.tsx), every component schema
 * (schemas-section.tsx). Readable from phone width up: nothing is wider than the screen, code scrolls inside itself.
 */
import type { Metadata } from 'next';
import { CodeBlock } from './code-block';
import { DocSection } from './doc-section';
import { Markdown } from './markdown';
import { DOC, tagGroups } from './model';
import { OperationSection } from './operation-section';
import { CREDENTIALS, EXAMPLE_BASE_URL } from './request-examples';
import { SchemasSection } from './schemas-section';
import { Sidebar } from './sidebar';

export const metadata: Metadata = { title: 'API reference · Memory Service' };

function Authentication() {
  return (
    <DocSection
      id="authentication"
      title="Authentication"
      intro={
        `Each operation names the credentials it takes. The examples call a service at \`${EXAMPLE_BASE_URL}\` (the default of ` +
        `\`npm start\`; the document’s \`servers\` entry is \`${DOC.servers[0]?.url}\`, the origin that served it) and read each ` +
        'credential from an environment variable:'
      }
    >
      <div className="mt-3 overflow-x-auto">
        <table className="w-full border-collapse text-sm">
          <caption className="sr-only">Security schemes</caption>
          <thead>
            <tr className="border-b text-left text-slate-500">
              <th scope="col" className="py-1 pr-3 font-medium">Credential</th>
              <th scope="col" className="py-1 font-medium">Header and meaning</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(CREDENTIALS).map(([scheme, c]) => (
              <tr key={scheme} className="border-b border-slate-100 align-top">
                <td className="py-1.5 pr-3 [overflow-wrap:anywhere]">
                  <span className="font-mono font-medium">{scheme}</span>
                  <div className="font-mono text-xs text-slate-600">${c.env}</div>
                </td>
                <td className="py-1.5 [overflow-wrap:anywhere]">
                  <code className="rounded bg-slate-100 px-1 text-[0.85em]">
                    {c.header}: {c.prefix}
                    {'<'}
                    {c.env}
                    {'>'}
                  </code>
                  <Markdown className="mt-1 text-slate-700" text={DOC.components.securitySchemes[scheme]?.description ?? c.label} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <CodeBlock label="Shell" code={`export MEMORY_API_KEY=mem_sk_…   # printed once by the first start, or POST /v1/admin/tenants`} />
    </DocSection>
  );
}

export default function ApiReference() {
  const groups = tagGroups();
  return (
    <div id="top" className="lg:grid lg:grid-cols-[18rem_minmax(0,1fr)]">
      <Sidebar groups={groups} />
      <main className="min-w-0 px-4 py-8 sm:px-6 lg:px-10">
        <h1 className="text-3xl font-semibold">{DOC.info.title}</h1>
        <Markdown className="mt-3 text-slate-700" text={DOC.info.description} />
        <p className="mt-2 text-sm">
          Machine-readable:{' '}
          <a className="text-blue-700 underline" href="/v1/openapi.json">
            /v1/openapi.json
          </a>{' '}
          (OpenAPI {DOC.openapi}, version {DOC.info.version}).
        </p>
        <Authentication />
        {groups.map((g) => (
          <DocSection key={g.name} id={g.anchor} title={g.name} intro={g.description}>
            <div className="mt-6 space-y-10">
              {g.operations.map((documented) => (
                <OperationSection key={documented.op.operationId} documented={documented} />
              ))}
            </div>
          </DocSection>
        ))}
        <SchemasSection />
      </main>
    </div>
  );
}
