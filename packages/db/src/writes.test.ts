/**
 * Which tables a write statement changes, read from its text (writes.ts): the tables an INSERT, an UPDATE or a
 * WITH statement of them names, and null (any table) whenever the text cannot tell.
 */
import { describe, expect, it } from 'vitest';
import { newWriteCounter, noteWrite, stampOf, writtenTables } from './writes';

describe('writtenTables', () => {
  it('names the table of an INSERT or UPDATE as Drizzle and raw SQL write them', () => {
    expect(writtenTables('insert into "memories" ("id", "content") values ($1, $2) returning "id"')).toEqual(['memories']);
    expect(writtenTables('update "end_users" set "memory_version" = "end_users"."memory_version" + 1 where "end_users"."id" in ($1)')).toEqual(['end_users']);
    expect(writtenTables('\n  UPDATE tenants SET quota_mode = $1 WHERE id = $2 RETURNING id')).toEqual(['tenants']);
    expect(writtenTables('UPDATE ONLY public.jobs AS j SET n = 1')).toEqual(['jobs']);
    expect(writtenTables('INSERT INTO "public"."Odd ""name""" VALUES (1)')).toEqual(['odd "name"']);
    expect(writtenTables('/* plan each time */ UPDATE "extraction_jobs" SET status = \'running\' WHERE id = $1')).toEqual(['extraction_jobs']);
  });

  it('does not take a row lock or a conflict action for a second target', () => {
    expect(
      writtenTables(`INSERT INTO tenant_usage AS u (tenant_id, add_calls) VALUES ($1, $2)
        ON CONFLICT (tenant_id) DO UPDATE SET add_calls = u.add_calls + excluded.add_calls`),
    ).toEqual(['tenant_usage']);
    expect(
      writtenTables(`WITH next AS (SELECT id FROM jobs WHERE status = 'queued' FOR NO KEY UPDATE SKIP LOCKED LIMIT 1)
        UPDATE jobs SET status = 'running' FROM next WHERE jobs.id = next.id`),
    ).toEqual(['jobs']);
    expect(writtenTables('WITH j AS (SELECT id FROM jobs FOR UPDATE OF jobs) UPDATE jobs SET n = 1 FROM j')).toEqual(['jobs']);
  });

  it('names every table of a WITH statement made of INSERTs and UPDATEs', () => {
    expect(
      writtenTables(`WITH se AS (INSERT INTO source_events SELECT * FROM jsonb_populate_record(NULL::source_events, $1::jsonb) RETURNING id),
        job AS (INSERT INTO extraction_jobs SELECT j.* FROM se, jsonb_populate_record(NULL::extraction_jobs, $2::jsonb) j RETURNING id)
        SELECT (SELECT count(*) FROM se)::int AS events`),
    ).toEqual(['source_events', 'extraction_jobs']);
  });

  it('cannot tell (null) for a DELETE, DDL, comments, an unnamed target or anything else', () => {
    expect(writtenTables('DELETE FROM end_users WHERE id = $1')).toBeNull();
    expect(writtenTables('WITH gone AS (DELETE FROM memories RETURNING id) UPDATE end_users SET memory_version = 0')).toBeNull();
    expect(writtenTables('WITH x AS (UPDATE a SET n = 1 RETURNING id) SELECT * FROM x -- INSERT INTO b')).toBeNull();
    expect(writtenTables('UPDATE a SET n = 1 /* and */ WHERE id = 1')).toBeNull();
    expect(writtenTables("UPDATE a SET note = 'update' WHERE id = 1")).toBeNull();
    expect(writtenTables('CREATE TABLE t (a int)')).toBeNull();
    expect(writtenTables('TRUNCATE memories')).toBeNull();
    expect(writtenTables('SELECT 1')).toBeNull();
    expect(writtenTables('INSERT t VALUES (1)')).toBeNull();
    expect(writtenTables('WITH x AS (SELECT 1) SELECT * FROM x')).toBeNull();
  });
});

describe('stampOf', () => {
  it('moves for a read of some tables only when one of them, or any table, may have changed', () => {
    const w = newWriteCounter();
    const quota = ['tenants', 'tenant_usage'];
    const before = stampOf(w, quota);
    noteWrite(w, ['source_events', 'extraction_jobs']);
    expect(stampOf(w, quota)).toBe(before);
    expect(stampOf(w)).toBe(1);
    noteWrite(w, ['tenant_usage']);
    expect(stampOf(w, quota)).toBe(before + 1);
    noteWrite(w, null);
    expect(stampOf(w, quota)).toBe(before + 2);
    expect(w.count).toBe(3);
  });

  it("records a transaction's tables, or that it may have changed any", () => {
    const w = newWriteCounter();
    const tx = { tables: new Set<string>(), unknown: false };
    noteWrite(w, ['memories'], tx);
    noteWrite(w, ['passages'], tx);
    expect([...tx.tables]).toEqual(['memories', 'passages']);
    noteWrite(w, null, tx);
    expect(tx.unknown).toBe(true);
  });
});
