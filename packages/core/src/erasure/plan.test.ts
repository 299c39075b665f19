/** The erasure plan names every table that holds an end user's rows, in the migrated schema (not a list kept by hand). */
import { rows, sql } from '@memory/db';
import { describe, expect, it } from 'vitest';
import { useMemoryDatabase } from '../testing/memory-database';
import { ERASURE_PLAN } from './plan';

const database = useMemoryDatabase();

describe('the erasure plan', () => {
  it('has a step for every table with a user_id or external_user_id column', async () => {
    const found = await rows<{ table_name: string }>(
      database().db,
      sql`SELECT DISTINCT table_name FROM information_schema.columns
          WHERE table_schema = 'public' AND column_name IN ('user_id', 'external_user_id')`,
    );
    const tables = found.map((r) => r.table_name).sort();
    expect(tables.length).toBeGreaterThan(10);
    const named = new Set(ERASURE_PLAN.flatMap((s) => s.tables));
    expect(tables.filter((t) => !named.has(t))).toEqual([]);
  });

  it('names each kind once and ends with the user row', () => {
    const kinds = ERASURE_PLAN.map((s) => s.kind);
    expect(new Set(kinds).size).toBe(kinds.length);
    expect(kinds.at(-1)).toBe('end_user');
  });
});
