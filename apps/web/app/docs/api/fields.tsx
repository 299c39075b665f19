/**
 * The fields of an object schema as a two-column table (field with its type, description with its limits), readable
 * at phone width. Inline objects are flattened into dotted names; referenced schemas stay links.
 */
import { breakable } from './breakable';
import { Markdown } from './markdown';
import { type JsonSchema, resolve } from './model';
import { TypeLabel, constraints } from './schema-type';

export interface FieldRow {
  name: string;
  schema: JsonSchema;
  required: boolean;
  /** Where the value goes, for parameters (`path`, `query`, `header`). */
  location?: string;
}

/** The rows of an object schema; an inline object's fields follow it as `parent.child`. */
export function objectRows(schema: JsonSchema, prefix = ''): FieldRow[] {
  return Object.entries(schema.properties ?? {}).flatMap(([name, field]) => {
    const row: FieldRow = { name: prefix + name, schema: field, required: schema.required?.includes(name) ?? false };
    return [row, ...(field.properties && !field.$ref ? objectRows(field, `${prefix}${name}.`) : [])];
  });
}

export function FieldsTable({ rows, caption }: { rows: FieldRow[]; caption: string }) {
  return (
    <div className="mt-2 overflow-x-auto">
      <table className="w-full border-collapse text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b text-left text-slate-500">
            <th scope="col" className="w-2/5 py-1 pr-3 font-medium">Field</th>
            <th scope="col" className="py-1 font-medium">Description</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ name, schema, required, location }) => {
            const limits = constraints(schema);
            return (
              <tr key={`${location ?? ''}${name}`} className="border-b border-slate-100 align-top">
                <td className="py-1.5 pr-3 [overflow-wrap:anywhere]">
                  <span className="font-mono font-medium">{breakable(name)}</span>
                  {required ? <span className="text-xs font-medium text-red-700"> required</span> : null}
                  <div className="text-xs text-slate-600">
                    {location ? `${location} · ` : null}
                    <TypeLabel schema={schema} />
                  </div>
                </td>
                <td className="py-1.5 [overflow-wrap:anywhere]">
                  {schema.description ? <Markdown text={schema.description} /> : null}
                  {!schema.description && schema.$ref && resolve(schema).description ? (
                    <Markdown className="text-slate-600" text={resolve(schema).description as string} />
                  ) : null}
                  {limits.length ? <p className="text-xs text-slate-500">{limits.join(' · ')}</p> : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
