/**
 * What the embedded engine's statements may have changed: the count behind `dataWrites` and `readUntilWrite`
 * (index.ts; docs/operations.md, "Reads kept between writes on the embedded engine").
 *
 * Every statement that may have changed data moves `count`. A write whose text names the tables it changes
 * (an INSERT or UPDATE, or a WITH statement made only of them) also moves those tables' own counts; any other
 * write (DELETE, which may cascade; DDL; `exec`; a statement the text cannot tell) moves `unknown`, which every
 * table's reads depend on. A read that names its tables is then kept across writes to other tables: the add
 * path's quota read is no longer dropped by every source event, job and memory the server writes meanwhile.
 */

export interface WriteCounter {
  /** Statements so far that may have changed data (any table). */
  count: number;
  /** Of those, the ones whose changed tables are not known: any table may have changed. */
  unknown: number;
  /** Per table, the statements known to have changed only named tables, this one among them. */
  tables: Map<string, number>;
}

export const newWriteCounter = (): WriteCounter => ({ count: 0, unknown: 0, tables: new Map() });

/** A transaction's writes so far: its tables, or that one of its statements could have changed any. */
export interface TransactionWrites {
  tables: Set<string>;
  unknown: boolean;
}

/** Records one statement that may have changed `tables` (null: any table), in `tx` too when inside one. */
export function noteWrite(writes: WriteCounter, tables: readonly string[] | null, tx?: TransactionWrites): void {
  writes.count++;
  if (tables === null) writes.unknown++;
  else for (const t of tables) writes.tables.set(t, (writes.tables.get(t) ?? 0) + 1);
  if (!tx) return;
  if (tables === null) tx.unknown = true;
  else for (const t of tables) tx.tables.add(t);
}

/**
 * A read's stamp: it moves whenever a statement that may have changed one of `tables` runs (every counter only
 * grows, so the sum moves exactly then). Without tables, it moves with every write.
 */
export function stampOf(writes: WriteCounter, tables?: readonly string[]): number {
  if (!tables) return writes.count;
  let stamp = writes.unknown;
  for (const t of tables) stamp += writes.tables.get(t) ?? 0;
  return stamp;
}

/** Whether a statement that ran may have changed data: when unsure, yes. */
export function mayHaveChangedData(query: string, result: unknown): boolean {
  if (/^\s*select\b/i.test(query)) return false;
  return !(/^\s*(insert|update|delete)\b/i.test(query) && (result as { affectedRows?: number } | null)?.affectedRows === 0);
}

// A table name as written: plain or quoted, optionally schema-qualified (the last part is the table).
const NAME = String.raw`(?:"(?:[^"]|"")+"|[a-z_][a-z0-9_$]*)`;
const TARGET = new RegExp(String.raw`\s+(?:only\s+)?(?:${NAME}\s*\.\s*)?(${NAME})`, 'y');
// words that make a statement change what its text does not name (DELETE may cascade), or anything at all
const UNKNOWN_EFFECT = /\b(?:delete|truncate|merge|copy|create|alter|drop|grant|revoke|call|execute|lock|vacuum|refresh|reindex|cluster|comment|security)\b/;
// an UPDATE that is a row lock (FOR UPDATE, FOR NO KEY UPDATE) or the conflict action of an INSERT (DO UPDATE)
const NOT_A_TARGET = /(?:\bfor\s+(?:no\s+key\s+)?|\bdo\s+)$/;

/**
 * The tables a write statement changes, read from its text; null when the text cannot tell (then any table may
 * have changed). Only an INSERT, an UPDATE, or a WITH statement whose data-modifying parts are INSERTs and
 * UPDATEs is read; each `INSERT INTO` and `UPDATE` must name its table, and no comment may hide a word.
 */
export function writtenTables(query: string): string[] | null {
  const text = query.replace(/^\s*(?:\/\*[^]*?\*\/\s*)*/, '').toLowerCase();
  if (!/^(?:insert|update|with)\b/.test(text) || text.includes('--') || text.includes('/*')) return null;
  if (UNKNOWN_EFFECT.test(text)) return null;
  if (/\binsert\b(?!\s+into\b)/.test(text)) return null;
  const tables = new Set<string>();
  for (const word of text.matchAll(/\b(?:insert\s+into|update)\b/g)) {
    if (word[0] === 'update' && NOT_A_TARGET.test(text.slice(Math.max(0, word.index - 24), word.index))) continue;
    TARGET.lastIndex = word.index + word[0].length;
    const target = TARGET.exec(text);
    if (!target) return null;
    const name = target[1];
    const table = name.startsWith('"') ? name.slice(1, -1).replace(/""/g, '"') : name;
    if (table === 'set' || table === 'select' || table === 'values') return null;
    tables.add(table);
  }
  return tables.size > 0 ? [...tables] : null;
}
