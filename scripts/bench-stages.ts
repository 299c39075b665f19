/**
 * `npm run bench:stages`: where an extraction job's time goes, without HTTP load, one job at a time, on one core.
 *
 * Queues the add benchmark's conversations (scripts/bench-lib.ts `addConversation`, 200 users) through the add
 * path, then runs every job's steps one after another and times each stage separately:
 *   extraction  the built-in extractor over the conversation (packages/core/src/extraction/builtin.ts)
 *   encoding    the index analysis of what storing writes: the offline word vector and the terms of every
 *               extracted memory and of every message passage (text/analysis.ts `analyseForIndex`)
 *   storing     the store step (jobs/extraction-pipeline.ts `storeExtractionResult`): one transaction with the
 *               memories, the conflict decisions, the composition, the passages, the ledger and the job's
 *               completion; it computes the encoding above again, inside it
 * and reports messages per second per stage and SQL statements per job (a Drizzle query logger).
 * PGlite runs in memory in this process (the embedded default); with `--engines postgres` a throwaway database
 * on the local PostgreSQL is created and dropped. Only 127.0.0.1 is contacted.
 *
 * Results: <out>/stages-<timestamp>.json and .md (default bench/results).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Database, type DatabaseConfig, createDatabase, runMigrations } from '@memory/db';
import postgres from 'postgres';
import { loadConfig } from '../packages/core/src/config';
import { BuiltinExtractor } from '../packages/core/src/extraction/builtin';
import type { ExtractionResult } from '../packages/core/src/extraction/types';
import { addMemories } from '../packages/core/src/ingestion/add';
import { loadExtractionInput, storeExtractionResult } from '../packages/core/src/jobs/extraction-pipeline';
import { conversationSentiment } from '../packages/core/src/domains/sentiment';
import { createQuotaDeps } from '../packages/core/src/quota/service';
import { analyseForIndex } from '../packages/core/src/text/analysis';
import { apiKeyActor, createTenant } from '../packages/core/src/tenants/tenants';
import { fmt, markdownTable } from './bench-lib';
import { ADD_USERS } from './bench-seed';
import { addConversation, rng } from './bench-synthetic';

interface Flags {
  jobs: number;
  repeat: number;
  engines: ('pglite' | 'postgres')[];
  out: string;
  pgUrl: string;
}

const USAGE = `Usage: npm run bench:stages -- [flags]

  --jobs 400                conversations queued and run (the add benchmark's, 200 users)
  --repeat 3                runs per engine, each on a fresh database; the table gives each stage's median
  --engines pglite,postgres storage engines to measure (one after the other)
  --out bench/results       where stages-<timestamp>.json and .md are written
  --pg-url URL              admin URL of the local PostgreSQL (default postgres://postgres@127.0.0.1:5432/postgres,
                            or BENCH_PG_ADMIN_URL); must point at 127.0.0.1/localhost`;

function parse(argv: string[]): Flags {
  const f: Flags = {
    jobs: 400,
    repeat: 3,
    engines: ['pglite', 'postgres'],
    out: 'bench/results',
    pgUrl: process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  };
  for (let i = 0; i < argv.length; i++) {
    const need = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${argv[i - 1]} needs a value\n\n${USAGE}`);
      return v;
    };
    switch (argv[i]) {
      case '--jobs':
        f.jobs = Number(need());
        if (!Number.isInteger(f.jobs) || f.jobs < 1) throw new Error('--jobs must be a positive integer');
        break;
      case '--repeat':
        f.repeat = Number(need());
        if (!Number.isInteger(f.repeat) || f.repeat < 1) throw new Error('--repeat must be a positive integer');
        break;
      case '--engines':
        f.engines = need().split(',').map((e) => {
          if (e !== 'pglite' && e !== 'postgres') throw new Error(`unknown engine ${e}`);
          return e;
        });
        break;
      case '--out':
        f.out = need();
        break;
      case '--pg-url':
        f.pgUrl = need();
        break;
      case '--help':
      case '-h':
        console.log(USAGE);
        process.exit(0);
        break;
      default:
        throw new Error(`unknown flag ${argv[i]}\n\n${USAGE}`);
    }
  }
  const host = new URL(f.pgUrl).hostname;
  if (f.engines.includes('postgres') && host !== '127.0.0.1' && host !== 'localhost') throw new Error('--pg-url must point at 127.0.0.1 or localhost');
  return f;
}

interface StageResult {
  engine: string;
  jobs: number;
  messages: number;
  memories: number;
  passages: number;
  seconds: { load: number; extraction: number; encoding: number; storing: number };
  statementsPerJob: { load: number; storing: number };
}

async function measure(engine: 'pglite' | 'postgres', f: Flags): Promise<StageResult> {
  let statements = 0;
  const onQuery = () => {
    statements++;
  };
  let dropDatabase: (() => Promise<void>) | null = null;
  let config: DatabaseConfig;
  if (engine === 'pglite') config = { kind: 'pglite', dataDir: null, onQuery };
  else {
    const name = `bench_stages_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const admin = postgres(f.pgUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${name}`);
    const url = new URL(f.pgUrl);
    url.pathname = `/${name}`;
    config = { kind: 'postgres', url: url.toString(), poolSize: 2, onQuery };
    dropDatabase = async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    };
  }
  const database: Database = createDatabase(config);
  try {
    await runMigrations(config, database);
    const appConfig = loadConfig({});
    const deps = { db: database.db, config: appConfig, queue: { name: 'none', enqueue: async () => {} }, quota: createQuotaDeps(database.db, appConfig) };
    const tenant = await createTenant(database.db, `bench-stages-${engine}`);
    const auth = { tenantId: tenant.tenant_id, apiKeyId: tenant.api_key_id, actor: apiKeyActor(tenant.api_key_id) };
    const r = rng(1234);
    const jobIds: string[] = [];
    for (let seq = 0; seq < f.jobs; seq++) {
      const res = await addMemories(
        deps,
        auth,
        { external_user_id: `${ADD_USERS_PREFIX}${seq % ADD_USERS}`, messages: addConversation(seq, r) },
        { requestId: randomUUID() },
      );
      if (!res.body.job_id) throw new Error(`add ${seq} was not queued: ${res.body.status}`);
      jobIds.push(res.body.job_id);
    }
    const extractor = new BuiltinExtractor();
    const out: StageResult = {
      engine: engine === 'pglite' ? 'PGlite (in memory, this process)' : 'PostgreSQL 127.0.0.1',
      jobs: jobIds.length,
      messages: 0,
      memories: 0,
      passages: 0,
      seconds: { load: 0, extraction: 0, encoding: 0, storing: 0 },
      statementsPerJob: { load: 0, storing: 0 },
    };
    let loadStatements = 0;
    let storeStatements = 0;
    for (const jobId of jobIds) {
      let t = performance.now();
      statements = 0;
      const input = await loadExtractionInput(database.db, jobId);
      out.seconds.load += (performance.now() - t) / 1000;
      loadStatements += statements;

      t = performance.now();
      const result: ExtractionResult = await extractor.extract({ messages: input.messages, observedAt: new Date(input.observedAt), domain: input.domain });
      out.seconds.extraction += (performance.now() - t) / 1000;

      t = performance.now();
      for (const m of result.memories) analyseForIndex(m.content);
      for (const msg of input.messages) analyseForIndex(msg.content);
      out.seconds.encoding += (performance.now() - t) / 1000;

      t = performance.now();
      statements = 0;
      const summary = await storeExtractionResult(database.db, jobId, result, {}, { sentiment: conversationSentiment(input.messages), messages: input.messages });
      out.seconds.storing += (performance.now() - t) / 1000;
      storeStatements += statements;

      out.messages += input.messages.length;
      out.memories += result.memories.length;
      out.passages += summary.passages_indexed ?? 0;
    }
    out.statementsPerJob = { load: loadStatements / jobIds.length, storing: storeStatements / jobIds.length };
    return out;
  } finally {
    await database.close();
    await dropDatabase?.();
  }
}

const ADD_USERS_PREFIX = 'stages-user-';

async function main() {
  const f = parse(process.argv.slice(2));
  const runs: StageResult[][] = [];
  for (const engine of f.engines) {
    // a first, unmeasured pass warms the JIT and loads the word vectors
    await measure(engine, { ...f, jobs: Math.min(50, f.jobs) });
    const these: StageResult[] = [];
    for (let i = 0; i < f.repeat; i++) {
      const res = await measure(engine, f);
      these.push(res);
      console.error(`${engine} run ${i + 1}: ${res.jobs} jobs, ${res.messages} messages, ${res.memories} memories`);
    }
    runs.push(these);
  }
  const perSecond = (n: number, s: number) => (s > 0 ? n / s : 0);
  const median = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
  };
  const rate = (these: StageResult[], seconds: (r: StageResult) => number) => fmt(median(these.map((r) => perSecond(r.messages, seconds(r)))), 0);
  const rows = runs.map((these) => {
    const r = these[0];
    return [
      r.engine,
      String(r.jobs),
      String(r.messages),
      String(r.memories),
      rate(these, (x) => x.seconds.extraction),
      rate(these, (x) => x.seconds.encoding),
      rate(these, (x) => x.seconds.storing),
      fmt(r.statementsPerJob.storing, 1),
      rate(these, (x) => x.seconds.load + x.seconds.extraction + x.seconds.storing),
    ];
  });
  const md = [
    `Stage throughput (\`npm run bench:stages\`, ${new Date().toISOString()}, one job at a time, no HTTP load, median of ${f.repeat} runs)`,
    '',
    markdownTable(
      ['Engine', 'Jobs', 'Messages', 'Memories', 'Extraction msgs/s', 'Encoding msgs/s', 'Storing msgs/s (incl. encoding)', 'Statements per store', 'Job end to end msgs/s'],
      rows,
      [false, true, true, true, true, true, true, true, true],
    ),
    '',
  ].join('\n');
  console.log(md);
  mkdirSync(f.out, { recursive: true });
  const stamp = new Date().toISOString().replaceAll(':', '-');
  writeFileSync(path.join(f.out, `stages-${stamp}.json`), JSON.stringify({ flags: f, runs }, null, 2));
  writeFileSync(path.join(f.out, `stages-${stamp}.md`), md);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
