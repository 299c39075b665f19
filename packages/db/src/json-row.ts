/**
 * Rows for statements that insert through `jsonb_populate_record(NULL::<table>, $json)`: one parameter for a
 * whole row, whatever its width, so a multi-table insert stays one statement (ingestion's source event + job).
 */
import { getTableColumns } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/**
 * A row with every column named: jsonb_populate_record fills an absent key with NULL, not with the column's
 * default, so the type leaves no column out.
 */
export type FullRow<T extends PgTable> = Required<T['$inferInsert']>;

/** The row keyed by SQL column names, as jsonb_populate_record reads it (dates become ISO strings in JSON). */
export function toColumnNames<T extends PgTable>(table: T, row: FullRow<T>): Record<string, unknown> {
  const values = row as Record<string, unknown>;
  return Object.fromEntries(Object.entries(getTableColumns(table)).map(([key, column]) => [column.name, values[key]]));
}
