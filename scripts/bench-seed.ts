/**
 * Seeding a benchmark database with synthetic memories (straight into the tables, in batches), and the job
 * summary read back after an add run.
 */
import { randomUUID } from 'node:crypto';
import {
  type DatabaseConfig,
  createDatabase,
  endUsers,
  memories,
  rows,
  sourceEvents,
  runMigrations,
  sql,
} from '@memory/db';
import { canonicalJson, sha256Hex } from '../packages/core/src/crypto';
import { memoryFingerprint } from '../packages/core/src/memories/fingerprint';
import { analyseForIndex } from '../packages/core/src/text/analysis';
import { createTenant } from '../packages/core/src/tenants/tenants';
import { Api } from './bench-http';
import { syntheticMemories } from './bench-synthetic';


export const BENCH_USER = 'bench-user-1';
export const ADD_USERS = 200;
const BATCH = 500;

export interface Seeded {
  apiKey: string;
  tenantId: string;
  seedMs: number;
}

export async function seed(config: DatabaseConfig, size: number, checkInterrupted: () => void = () => {}): Promise<Seeded> {
  const t0 = performance.now();
  const database = createDatabase(config.kind === 'postgres' ? { ...config, poolSize: 2 } : config);
  try {
    await runMigrations(config, database);
    const { db } = database;
    const tenant = await createTenant(db, `bench-${size}`);
    const userId = randomUUID();
    await db.insert(endUsers).values({ id: userId, tenantId: tenant.tenant_id, externalUserId: BENCH_USER, memoryVersion: size });

    const now = Date.now();
    const messages = [
      { role: 'user', content: 'I live in Lisbon, I love jazz and I am training for a half marathon.' },
      { role: 'assistant', content: 'Good to know! I will keep that in mind.' },
    ];
    const eventId = randomUUID();
    await db.insert(sourceEvents).values({
      id: eventId,
      tenantId: tenant.tenant_id,
      userId,
      service: 'default',
      eventId: 'evt_bench_seed',
      eventIdGenerated: 0,
      observedAt: new Date(now - 366 * 86_400_000),
      receivedAt: new Date(now - 366 * 86_400_000),
      payloadHash: sha256Hex(canonicalJson({ external_user_id: BENCH_USER, messages, metadata: null })),
      payload: { messages, metadata: null },
    });

    const synthetic = syntheticMemories(size, memoryFingerprint);
    for (let i = 0; i < synthetic.length; i += BATCH) {
      checkInterrupted();
      await db.insert(memories).values(
        synthetic.slice(i, i + BATCH).map((m) => {
          const created = new Date(now - m.ageDays * 86_400_000 - Math.floor(Math.random() * 86_400_000));
          return {
            id: randomUUID(),
            tenantId: tenant.tenant_id,
            userId,
            agentId: null,
            content: m.content,
            category: m.category,
            status: 'active' as const,
            importance: m.importance,
            confidence: m.confidence,
            fingerprint: memoryFingerprint(m.content),
            // the ranking inputs every write of the service stores beside the text (text/analysis.ts), so a cold
            // retrieve parses them as it would a real user's, instead of analysing 10,000 texts again
            ...analyseForIndex(m.content),
            sourceEventId: eventId,
            jobId: null,
            messageIndices: [0],
            observedAt: created,
            createdAt: created,
            updatedAt: created,
          };
        }),
      );
    }
    // A long-running database has planner statistics; a freshly seeded one would not without this.
    await db.execute(sql`ANALYZE`);
    return { apiKey: tenant.api_key, tenantId: tenant.tenant_id, seedMs: performance.now() - t0 };
  } finally {
    await database.close();
  }
}

/** Extraction jobs by status and memory count, read after the server has stopped. */
export async function jobSummary(config: DatabaseConfig): Promise<{ jobs: Record<string, number>; memories: number; errors: string[] }> {
  const database = createDatabase(config.kind === 'postgres' ? { ...config, poolSize: 1 } : config);
  try {
    const byStatus = await rows<{ status: string; n: number | string }>(
      database.db,
      sql`SELECT status, count(*)::int AS n FROM extraction_jobs GROUP BY status ORDER BY status`,
    );
    const [mem] = await rows<{ n: number | string }>(database.db, sql`SELECT count(*)::int AS n FROM memories`);
    const errs = await rows<{ e: string; n: number | string }>(
      database.db,
      sql`SELECT coalesce(error_summary, error) AS e, count(*)::int AS n FROM extraction_jobs
          WHERE coalesce(error_summary, error) IS NOT NULL GROUP BY 1 ORDER BY 2 DESC LIMIT 5`,
    );
    return {
      jobs: Object.fromEntries(byStatus.map((r) => [r.status, Number(r.n)])),
      memories: Number(mem?.n ?? 0),
      errors: errs.map((r) => `${r.n}× ${String(r.e).slice(0, 300)}`),
    };
  } finally {
    await database.close();
  }
}

/** The seeded user's retrieves while its set was in no hot tier (issue 12: cold retrieve). */
export interface ColdRetrieves {
  /** The first after the server started: the ranking code not yet optimised by the JIT either. */
  firstMs: number;
  /** After each of `RELOADS` direct writes (each bumps the user's memory version, so the set is loaded again). */
  reloadMs: number[];
}

const RELOADS = 7;

/**
 * Times the seeded user's cold retrieves: the first after the server started, then one after each direct
 * write. A retrieve for a user with no memories goes first, so the route's code is loaded and the database
 * connections are open: what is timed is reading the user's set and indexing it.
 */
export async function coldRetrieves(baseUrl: string, apiKey: string): Promise<ColdRetrieves> {
  const api = new Api(baseUrl, `ApiKey ${apiKey}`);
  const retrieve = async (user: string) => {
    const t0 = performance.now();
    await api.call('POST', '/v1/memories/retrieve', { external_user_id: user, query: 'Where do I live these days?', limit: 10 });
    return performance.now() - t0;
  };
  await retrieve('bench-cold-warm-up');
  const firstMs = await retrieve(BENCH_USER);
  const reloadMs: number[] = [];
  for (let i = 0; i < RELOADS; i++) {
    await api.call('POST', '/v1/memories', { external_user_id: BENCH_USER, content: `The user wrote benchmark note number ${i + 1}.`, category: 'fact' });
    reloadMs.push(await retrieve(BENCH_USER));
  }
  return { firstMs, reloadMs };
}
