import type postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { driverRejectionListener, isCarriedOverTermination, isDriverTypesQueryFailure, pooledClient } from './postgres-client';

const terminated = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
const closed = Object.assign(new Error('write CONNECTION_CLOSED'), { code: 'CONNECTION_CLOSED' });

/** A stand-in for postgres.js: each statement answers with the next outcome (an Error rejects) and is counted. */
function fakeClient(outcomes: unknown[]) {
  const sent: { query: string; prepare: unknown; asValues: boolean }[] = [];
  const answer = (query: string, opts?: { prepare?: unknown }) => {
    const entry = { query, prepare: opts?.prepare, asValues: false };
    const outcome = () => {
      sent.push(entry);
      const next = outcomes.shift();
      return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
    };
    return {
      values() {
        entry.asValues = true;
        return outcome();
      },
      then: (ok: (v: unknown) => unknown, ko: (e: unknown) => unknown) => outcome().then(ok, ko),
    };
  };
  const client = {
    unsafe: (query: string, _params: unknown[], opts?: { prepare?: unknown }) => answer(query, opts),
    begin: async (run: (sql: unknown) => unknown) => {
      const begun = outcomes.shift();
      if (begun instanceof Error) throw begun;
      return run({ unsafe: (query: string, _params: unknown[], opts?: { prepare?: unknown }) => answer(query, opts) });
    },
  };
  return { client: client as unknown as postgres.Sql, sent };
}

describe('pooledClient', () => {
  it('sends a statement once more when it met a termination carried over from before a restart', async () => {
    const { client, sent } = fakeClient([terminated, [[1]]]);
    const rows = await pooledClient(client, { prepare: true }).unsafe('SELECT 1', []).values();
    expect(rows).toEqual([[1]]);
    expect(sent).toEqual([
      { query: 'SELECT 1', prepare: true, asValues: true },
      { query: 'SELECT 1', prepare: true, asValues: true },
    ]);
  });

  it('does not send again a statement whose connection closed under it (it may have run), nor a second time', async () => {
    const once = fakeClient([closed, [{ n: 1 }]]);
    await expect(pooledClient(once.client, { prepare: false }).unsafe('INSERT 1', [])).rejects.toBe(closed);
    expect(once.sent).toHaveLength(1);
    const twice = fakeClient([terminated, terminated, [{ n: 1 }]]);
    await expect(pooledClient(twice.client, { prepare: false }).unsafe('SELECT 1', [])).rejects.toBe(terminated);
    expect(twice.sent).toHaveLength(2);
  });

  it('prepares statements with few parameters unless told not to; leaves the choice to the caller when off', async () => {
    const { client, sent } = fakeClient([[], [], []]);
    await pooledClient(client, { prepare: true }).unsafe('SELECT $1', [1]);
    await pooledClient(client, { prepare: true }).unsafe('/* plan each time */ SELECT 1', []);
    await pooledClient(client, { prepare: false }).unsafe('SELECT 1', [], { prepare: false });
    expect(sent.map((s) => s.prepare)).toEqual([true, false, false]);
  });

  it('begins a transaction again when BEGIN met the old termination, but repeats nothing inside one', async () => {
    const { client, sent } = fakeClient([terminated, 'begun', terminated]);
    let runs = 0;
    const outcome = pooledClient(client, { prepare: true }).begin(async (tx) => {
      runs++;
      return tx.unsafe('SELECT 2', []);
    });
    await expect(outcome).rejects.toBe(terminated);
    expect(runs).toBe(1);
    expect(sent).toHaveLength(1);
  });

  it('knows the carried-over codes', () => {
    expect([terminated, { code: '57P02' }, closed, { code: '57P03' }, null].map(isCarriedOverTermination)).toEqual([true, true, false, false, false]);
  });
});

describe('driverRejectionListener', () => {
  /** A PostgresError as postgres.js leaves it on its array-types query: the query's text as a property. */
  const typesFailure = Object.assign(new Error('terminating connection due to administrator command'), {
    name: 'PostgresError',
    code: '57P01',
    query: 'select b.oid, b.typarray from pg_catalog.pg_type a left join pg_catalog.pg_type b on b.oid = a.typelem',
  });
  const appFailure = Object.assign(new Error('duplicate key value'), { name: 'PostgresError', code: '23505', query: 'insert into memories …' });

  it("turns the driver's failed types query into a warning", () => {
    const warned: Error[] = [];
    driverRejectionListener((err) => warned.push(err), () => false)(typesFailure);
    expect(warned).toEqual([typesFailure]);
    expect([typesFailure, appFailure, new Error('x'), 'text', null].map(isDriverTypesQueryFailure)).toEqual([true, false, false, false, false]);
  });

  it('throws any other rejection again unless another listener takes it', () => {
    const warned: Error[] = [];
    expect(() => driverRejectionListener((err) => warned.push(err), () => false)(appFailure)).toThrow(appFailure);
    expect(() => driverRejectionListener((err) => warned.push(err), () => true)(appFailure)).not.toThrow();
    expect(warned).toEqual([]);
  });
});
