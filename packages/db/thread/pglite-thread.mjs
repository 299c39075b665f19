/**
 * The embedded database's own thread (node:worker_threads): it owns the PGlite instance, so PostgreSQL's WASM
 * and PGlite's protocol parsing run here instead of on the HTTP event loop. The calling thread's client
 * (src/pglite-thread.ts) sends one message per statement and per transaction start and end; see that file for
 * the protocol. Plain JavaScript so the thread starts without a bundler or a TypeScript loader.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const keepText = (value) => value;
// The types whose values Drizzle's per-query parsers (drizzle-orm/pglite) keep as the text PostgreSQL sent (date,
// time and interval values, their arrays, numeric[]), named by the caller (`keepTextTypes`): installed in the
// instance's table, for every query.
const KEEP_TEXT = workerData.keepTextTypes;

const db = new PGlite(workerData.dataDir ?? undefined);
const installParsers = () => {
  // PGlite writes array parsers into its table at start (and on refreshArrayTypes), over these
  for (const oid of KEEP_TEXT) if (db.parsers[oid] !== keepText) db.parsers[oid] = keepText;
};

/** Open transactions by id: the PGlite transaction handle and how to end it. */
const open = new Map();
const ROLLBACK = Symbol('rollback');

/** The fields of a PostgreSQL error the caller reads (code, constraint, …), as plain data. */
function plainError(err) {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err) };
  const out = { name: err.name, message: err.message };
  for (const [key, value] of Object.entries(err)) {
    if (value === undefined || typeof value === 'function' || typeof value === 'object') continue;
    out[key] = value;
  }
  return out;
}

function begin(id) {
  return new Promise((started, failed) => {
    let entered = false;
    const ended = db
      .transaction(async (tx) => {
        entered = true;
        const decided = new Promise((resolve) => open.set(id, { tx, end: resolve, ended }));
        started();
        if (!(await decided)) throw ROLLBACK;
      })
      .then(
        () => undefined,
        (err) => {
          if (err !== ROLLBACK) throw err;
        },
      );
    // a BEGIN that failed never entered the callback; a failed COMMIT reaches `finish`
    ended.catch((err) => {
      if (!entered) failed(err);
    });
  });
}

async function finish(id, commit) {
  const entry = open.get(id);
  if (!entry) throw new Error(`no open transaction ${id}`);
  entry.end(commit);
  try {
    await entry.ended;
  } finally {
    open.delete(id);
  }
}

function target(tx) {
  if (tx === undefined) return db;
  const entry = open.get(tx);
  if (!entry?.tx) throw new Error(`no open transaction ${tx}`);
  return entry.tx;
}

async function handle(msg) {
  switch (msg.op) {
    case 'query': {
      installParsers();
      const r = await target(msg.tx).query(msg.sql, msg.params, msg.rowMode ? { rowMode: msg.rowMode } : undefined);
      return { rows: r.rows, fields: r.fields, affectedRows: r.affectedRows };
    }
    case 'exec': {
      installParsers();
      const results = await target(msg.tx).exec(msg.sql);
      return results.map((r) => ({ rows: r.rows, fields: r.fields, affectedRows: r.affectedRows }));
    }
    case 'begin':
      await begin(msg.id);
      return msg.id;
    case 'end':
      await finish(msg.tx, msg.commit);
      return null;
    case 'close':
      await db.close();
      return null;
    default:
      throw new Error(`unknown operation ${msg.op}`);
  }
}

parentPort.on('message', (msg) => {
  handle(msg).then(
    (result) => parentPort.postMessage({ id: msg.id, ok: true, result }),
    (err) => parentPort.postMessage({ id: msg.id, ok: false, error: plainError(err) }),
  );
});
