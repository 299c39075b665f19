/** Every component schema of the document, each at `#schema-<Name>`: its description, then its fields or values. */
import { DocSection } from './doc-section';
import { FieldsTable, objectRows } from './fields';
import { Markdown } from './markdown';
import { DOC, type JsonSchema, schemaAnchor } from './model';
import { TypeLabel, constraints } from './schema-type';

function SchemaBody({ name, schema }: { name: string; schema: JsonSchema }) {
  if (schema.properties) return <FieldsTable caption={`Fields of ${name}`} rows={objectRows(schema)} />;
  const limits = constraints(schema);
  return (
    <p className="mt-2 text-sm">
      <span className="text-slate-500">Type: </span>
      <TypeLabel schema={schema} />
      {limits.length ? <span className="text-xs text-slate-500"> · {limits.join(' · ')}</span> : null}
    </p>
  );
}

export function SchemasSection() {
  const schemas = Object.entries(DOC.components.schemas).sort(([a], [b]) => a.localeCompare(b));
  return (
    <DocSection
      id="schemas"
      title="Schemas"
      intro="The request and response shapes the operations name; a name in a type links here. Generated from the zod schemas the server validates with."
    >
      <div className="mt-4 space-y-8">
        {schemas.map(([name, schema]) => (
          <section key={name} id={schemaAnchor(name)} aria-labelledby={`${schemaAnchor(name)}-title`} className="scroll-mt-4 border-t border-slate-200 pt-4">
            <h3 id={`${schemaAnchor(name)}-title`} className="font-mono text-base font-semibold break-all">
              {name}
            </h3>
            {schema.description ? <Markdown className="mt-1 text-sm text-slate-700" text={schema.description} /> : null}
            <SchemaBody name={name} schema={schema} />
          </section>
        ))}
      </div>
    </DocSection>
  );
}
