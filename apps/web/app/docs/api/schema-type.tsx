/** A schema's type in words, with every component schema it names linked to where the page renders it. */
import { Fragment, type ReactNode } from 'react';
import { type JsonSchema, refName, schemaAnchor } from './model';

export function SchemaLink({ name }: { name: string }) {
  return (
    <a className="font-mono text-blue-700 underline" href={`#${schemaAnchor(name)}`}>
      {name}
    </a>
  );
}

const join = (parts: ReactNode[], sep: string) => parts.map((p, i) => <Fragment key={i}>{i > 0 ? sep : null}{p}</Fragment>);

export function TypeLabel({ schema }: { schema: JsonSchema }): ReactNode {
  if (schema.$ref) return <SchemaLink name={refName(schema.$ref)} />;
  if (schema.const !== undefined) return <code>{JSON.stringify(schema.const)}</code>;
  if (schema.enum) return join(schema.enum.map((v) => <code key={String(v)}>{JSON.stringify(v)}</code>), ' | ');
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return join(variants.map((v, i) => <TypeLabel key={i} schema={v} />), ' or ');
  if (Array.isArray(schema.type)) return schema.type.join(' or ');
  if (schema.type === 'array') return <>array of {schema.items ? <TypeLabel schema={schema.items} /> : 'any'}</>;
  if (schema.type === 'object' && !schema.properties && typeof schema.additionalProperties === 'object') {
    const values = schema.additionalProperties;
    return Object.keys(values).length === 0 ? 'object (any JSON)' : <>map of string to <TypeLabel schema={values} /></>;
  }
  if (schema.type === 'string' && schema.format) return `string (${schema.format})`;
  return schema.type ?? 'any';
}

/** JavaScript's safe-integer bounds, which zod states for every int: not worth showing. */
const SAFE = Number.MAX_SAFE_INTEGER;

/** The limits a reader needs: ranges, lengths, sizes, default, pattern (when no format says more). */
export function constraints(s: JsonSchema): string[] {
  const out: string[] = [];
  const range = (lo: number | undefined, hi: number | undefined, unit: string) => {
    const low = lo !== undefined && Math.abs(lo) !== SAFE ? lo : undefined;
    const high = hi !== undefined && Math.abs(hi) !== SAFE ? hi : undefined;
    if (low !== undefined && high !== undefined) out.push(`${unit}${low}–${high}`);
    else if (low !== undefined) out.push(`${unit}≥ ${low}`);
    else if (high !== undefined) out.push(`${unit}≤ ${high}`);
  };
  range(s.minimum, s.maximum, '');
  range(s.minLength, s.maxLength, 'length ');
  range(s.minItems, s.maxItems, 'items ');
  if (s.pattern && !s.format) out.push(`pattern ${s.pattern}`);
  if (s.default !== undefined) out.push(`default ${JSON.stringify(s.default)}`);
  if (s.example !== undefined) out.push(`e.g. ${JSON.stringify(s.example)}`);
  for (const v of s.anyOf ?? []) out.push(...constraints(v));
  return out;
}
