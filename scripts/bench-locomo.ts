/**
 * `npm run bench:locomo -- --data ../shared/bench/locomo/locomo10.json`
 *
 * LoCoMo retrieval benchmark through the public HTTP API of the built app (`next start`):
 *  1. one end user per conversation (`locomo-<sample_id>`); each session is one add call whose messages are
 *     the session's turns in order, every turn `role: "user"` with `name` set to its speaker (both people
 *     are humans talking to each other, so both speakers' statements must become memories about them),
 *     a photo's caption appended as "[shares a photo: …]", and a `source` block (service `locomo`,
 *     event id `<sample_id>:session_<n>`, `observed_at` = the session's date);
 *  2. waits for every extraction job;
 *  3. asks every question with a non-empty cleaned evidence list through POST /v1/memories/retrieve
 *     (limit 25) and scores LoCoMo's recall: the fraction of the question's evidence dia_ids covered by the
 *     top-k memories' provenance (event id -> session, message_indices -> turns), at k = 5, 10, 25;
 *  4. in the same run, a reference retriever over the raw turns (BM25, "<speaker>: <text>") on the same
 *     questions.
 * Writes bench/results/locomo-<stamp>.json and .md and prints the Markdown table.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bm25Top, buildIndex } from '../packages/core/src/retrieval/score';
import { ADMIN_TOKEN, ROOT, type RunningServer, startServer, tempDataDir } from '../tests/integration/server';
import { fmt, markdownTable, percentile } from './bench-lib';
import { CATEGORY_NAMES, type Sample, type Session, locomoQuestions, sessionsOf, turnText } from './locomo-data';

// ---------------------------------------------------------------------------------------------------------
// Scoring
// ---------------------------------------------------------------------------------------------------------

export function recallAt(retrieved: string[][], evidence: string[], k: number): number {
  const covered = new Set<string>();
  for (const ids of retrieved.slice(0, k)) for (const id of ids) covered.add(id);
  return evidence.filter((e) => covered.has(e)).length / evidence.length;
}

const KS = [5, 10, 25] as const;

interface Scores {
  n: number;
  recall: Record<number, number>;
}

function aggregate(per: { category: number; recall: Record<number, number> }[]): Record<string, Scores> {
  const groups: Record<string, { category: number; recall: Record<number, number> }[]> = { overall: per };
  for (const p of per) (groups[String(p.category)] ??= []).push(p);
  const out: Record<string, Scores> = {};
  for (const [key, list] of Object.entries(groups)) {
    const recall: Record<number, number> = {};
    for (const k of KS) recall[k] = list.reduce((s, p) => s + p.recall[k], 0) / Math.max(1, list.length);
    out[key] = { n: list.length, recall };
  }
  return out;
}

/** Reference retriever: BM25 over the raw turns of one conversation ("<speaker>: <text>"), no other signal. */
function rawTurnRetriever(sessions: Session[]) {
  const turns = sessions.flatMap((s) => s.turns);
  const idx = buildIndex(
    turns.map((t) => ({ id: t.dia_id, category: 'turn', importance: 0, agentId: null, createdAt: 0 })),
    turns.map((t) => `${t.speaker}: ${turnText(t)}`),
  );
  return (query: string, k: number): string[][] =>
    bm25Top(idx, query, k).map((r) => [turns[r.index].dia_id]);
}

// ---------------------------------------------------------------------------------------------------------
// HTTP
// ---------------------------------------------------------------------------------------------------------

class Api {
  constructor(
    readonly baseUrl: string,
    private readonly auth: string,
  ) {}
  async call<T>(method: string, p: string, body?: unknown): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${this.baseUrl}${p}`, {
        method,
        headers: { authorization: this.auth, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status === 429 && attempt < 20) {
        await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
        continue;
      }
      if (!res.ok) throw new Error(`${method} ${p} -> ${res.status}: ${text.slice(0, 300)}`);
      return JSON.parse(text) as T;
    }
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function createTenant(baseUrl: string, adminToken: string): Promise<string> {
  const admin = new Api(baseUrl, `Bearer ${adminToken}`);
  const res = await admin.call<{ data: { api_key: string } }>('POST', '/v1/admin/tenants', { name: `locomo-${Date.now()}` });
  return res.data.api_key;
}

interface RetrievedMemory {
  id: string;
  content: string;
  provenance: { event_id?: string; message_indices?: number[] } | null;
}

// ---------------------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------------------

interface Flags {
  data: string;
  engine: 'pglite' | 'postgres';
  pgUrl: string;
  conversations: number | null;
  out: string;
  url: string | null;
  apiKey: string | null;
  keep: boolean;
}

const USAGE = `Usage: npm run bench:locomo -- [flags]
  --data <path>          locomo10.json (default ../shared/bench/locomo/locomo10.json)
  --engine pglite|postgres  database of the server the script starts (default pglite, the embedded default)
  --pg-url <url>         PostgreSQL admin URL for --engine postgres (a fresh database is created and dropped)
  --conversations <n>    only the first n conversations (development runs)
  --url <base> --api-key <key>  use a running server instead of starting one
  --out <dir>            where to write the JSON and Markdown results (default bench/results)
  --keep                 keep the temporary data directory / database`;

function parseFlags(argv: string[]): Flags {
  const f: Flags = {
    data: path.resolve(ROOT, '../shared/bench/locomo/locomo10.json'),
    engine: 'pglite',
    pgUrl: 'postgres://postgres@127.0.0.1:5432/postgres',
    conversations: null,
    out: 'bench/results',
    url: null,
    apiKey: null,
    keep: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--data') f.data = path.resolve(process.env.INIT_CWD ?? process.cwd(), next());
    else if (a === '--engine') {
      const v = next();
      if (v !== 'pglite' && v !== 'postgres') throw new Error('--engine must be pglite or postgres');
      f.engine = v;
    } else if (a === '--pg-url') f.pgUrl = next();
    else if (a === '--conversations') f.conversations = Number(next());
    else if (a === '--out') f.out = next();
    else if (a === '--url') f.url = next().replace(/\/$/, '');
    else if (a === '--api-key') f.apiKey = next();
    else if (a === '--keep') f.keep = true;
    else if (a === '--help' || a === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else throw new Error(`unknown flag ${a}\n\n${USAGE}`);
  }
  if (f.url && !f.apiKey) throw new Error('--url needs --api-key');
  return f;
}

const log = (msg: string) => console.error(msg);

function gitCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    return null;
  }
}

async function startOwnServer(flags: Flags): Promise<{ server: RunningServer; cleanup: () => Promise<void> }> {
  if (!existsSync(path.join(ROOT, 'apps/web/.next/BUILD_ID'))) {
    log('building the app: npx turbo run build --filter=@memory/web');
    execFileSync('npx', ['turbo', 'run', 'build', '--filter=@memory/web', '--output-logs=errors-only'], { cwd: ROOT, stdio: 'inherit' });
  }
  const env: Record<string, string> = { MEMORY_LOG_LEVEL: 'warn', MEMORY_JOB_POLL_MS: '50' };
  if (flags.engine === 'pglite') {
    const dir = tempDataDir();
    const server = await startServer('pglite', { ...env, MEMORY_DATA_DIR: dir });
    return {
      server,
      cleanup: async () => {
        await server.stop();
        if (!flags.keep) rmSync(dir, { recursive: true, force: true });
        else log(`kept data dir ${dir}`);
      },
    };
  }
  const { default: postgres } = await import('postgres');
  const admin = postgres(flags.pgUrl, { max: 1, onnotice: () => {} });
  const dbName = `memory_locomo_${Date.now()}`;
  await admin.unsafe(`CREATE DATABASE ${dbName}`);
  const url = new URL(flags.pgUrl);
  url.pathname = `/${dbName}`;
  const server = await startServer('postgres', { ...env, DATABASE_URL: url.toString() });
  return {
    server,
    cleanup: async () => {
      await server.stop();
      if (!flags.keep) await admin.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      else log(`kept database ${dbName}`);
      await admin.end();
    },
  };
}

/** The started server's log, printed when the run fails. */
let serverOutput: (() => string) | null = null;

async function main(): Promise<number> {
  const flags = parseFlags(process.argv.slice(2));
  if (!existsSync(flags.data)) {
    console.log(`LoCoMo data not found at ${flags.data}: skipping (pass --data <path to locomo10.json>).`);
    return 0;
  }
  const samples = (JSON.parse(readFileSync(flags.data, 'utf8')) as Sample[]).slice(0, flags.conversations ?? undefined);

  let baseUrl: string;
  let apiKey: string;
  let cleanup = async () => {};
  if (flags.url) {
    baseUrl = flags.url;
    apiKey = flags.apiKey as string;
  } else {
    const own = await startOwnServer(flags);
    serverOutput = () => own.server.output();
    baseUrl = own.server.baseUrl;
    cleanup = own.cleanup;
    apiKey = await createTenant(baseUrl, ADMIN_TOKEN);
  }
  const api = new Api(baseUrl, `ApiKey ${apiKey}`);
  try {
    return await run(flags, samples, api);
  } catch (err) {
    if (serverOutput) process.stderr.write(`--- server log ---\n${serverOutput().slice(-4000)}\n`);
    throw err;
  } finally {
    await cleanup();
  }
}

async function run(flags: Flags, samples: Sample[], api: Api): Promise<number> {
  // A writer for the benchmark's source events (idempotent across runs against one server).
  await api
    .call('POST', '/v1/tenant/service-writers', {
      service_key: 'locomo',
      display_name: 'LoCoMo benchmark',
      authority_rules: { default_priority: 100 },
    })
    .catch((err: Error) => {
      if (!/409/.test(err.message)) throw err;
    });

  const runTag = Date.now().toString(36);
  const userOf = (s: Sample) => `locomo-${s.sample_id}-${runTag}`;
  const sessionsBySample = new Map(samples.map((s) => [s.sample_id, sessionsOf(s)]));

  // 1. Ingest: conversations in parallel, sessions of one conversation in order.
  log(`ingesting ${samples.length} conversations (${[...sessionsBySample.values()].reduce((n, s) => n + s.length, 0)} sessions)`);
  const ingestStart = performance.now();
  const jobIds: string[] = [];
  let statuses: Record<string, number> = {};
  await Promise.all(
    samples.map(async (sample) => {
      for (const session of sessionsBySample.get(sample.sample_id) ?? []) {
        const res = await api.call<{ job_id: string | null; status: string }>('POST', '/v1/memories/add', {
          external_user_id: userOf(sample),
          messages: session.turns.map((t) => ({ role: 'user', name: t.speaker, content: turnText(t) })),
          source: { service: 'locomo', event_id: `${sample.sample_id}:session_${session.n}:${runTag}`, observed_at: session.date.toISOString() },
        });
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.job_id) jobIds.push(res.job_id);
      }
    }),
  );
  const acceptedMs = performance.now() - ingestStart;
  const jobStatus: Record<string, number> = {};
  let memoriesCreated = 0;
  const pendingBuffered = { buffered: 0, promoted: 0 };
  for (const id of jobIds) {
    for (;;) {
      const job = await api.call<{ data: { status: string; memories_created: number; pending_candidates_buffered: number; pending_candidates_promoted: number } }>(
        'GET',
        `/v1/memories/jobs/${id}`,
      );
      if (['completed', 'processed', 'failed', 'dead'].includes(job.data.status)) {
        jobStatus[job.data.status] = (jobStatus[job.data.status] ?? 0) + 1;
        memoriesCreated += job.data.memories_created;
        pendingBuffered.buffered += job.data.pending_candidates_buffered;
        pendingBuffered.promoted += job.data.pending_candidates_promoted;
        break;
      }
      await sleep(100);
    }
  }
  const ingestMs = performance.now() - ingestStart;
  log(`ingested in ${fmt(ingestMs / 1000)} s (adds accepted in ${fmt(acceptedMs / 1000)} s); jobs ${JSON.stringify(jobStatus)}; add statuses ${JSON.stringify(statuses)}`);

  // Memories stored per conversation (active ones: what retrieval can return).
  let memoriesStored = 0;
  for (const sample of samples) {
    let cursor: string | null = null;
    do {
      const q: string = `/v1/memories?external_user_id=${encodeURIComponent(userOf(sample))}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page: { data: { items: unknown[]; next_cursor: string | null } } = await api.call('GET', q);
      memoriesStored += page.data.items.length;
      cursor = page.data.next_cursor;
    } while (cursor);
  }

  // 2. Questions.
  const { questions, skippedNoEvidence } = locomoQuestions(samples, sessionsBySample);
  log(`asking ${questions.length} questions (${skippedNoEvidence} skipped: no usable evidence)`);

  const service: { category: number; recall: Record<number, number> }[] = [];
  const reference: { category: number; recall: Record<number, number> }[] = [];
  const latencies: number[] = [];
  const contextTokens: number[] = [];
  const retrievers = new Map(samples.map((s) => [s.sample_id, rawTurnRetriever(sessionsBySample.get(s.sample_id) ?? [])]));
  const failures: string[] = [];
  for (const q of questions) {
    const sessions = sessionsBySample.get(q.sample) ?? [];
    const bySession = new Map(sessions.map((s) => [s.n, s]));
    const t0 = performance.now();
    const res = await api.call<{ data: RetrievedMemory[] }>('POST', '/v1/memories/retrieve', {
      external_user_id: userOf(samples.find((s) => s.sample_id === q.sample) as Sample),
      query: q.question,
      limit: 25,
    });
    latencies.push(performance.now() - t0);
    const covered = res.data.map((m) => {
      const ev = /:session_(\d+):/.exec(m.provenance?.event_id ?? '');
      const session = ev ? bySession.get(Number(ev[1])) : undefined;
      if (!session) {
        failures.push(`memory ${m.id} has no usable provenance`);
        return [];
      }
      return (m.provenance?.message_indices ?? []).map((i) => session.turns[i]?.dia_id).filter((x): x is string => Boolean(x));
    });
    const recall: Record<number, number> = {};
    for (const k of KS) recall[k] = recallAt(covered, q.evidence, k);
    service.push({ category: q.category, recall });

    // What an agent would put in its prompt: the default retrieve (10 memories, 500-token budget).
    const ctx = await api.call<{ context_token_count: number | null }>('POST', '/v1/memories/retrieve', {
      external_user_id: userOf(samples.find((s) => s.sample_id === q.sample) as Sample),
      query: q.question,
    });
    contextTokens.push(ctx.context_token_count ?? 0);

    const raw = retrievers.get(q.sample)?.(q.question, 25) ?? [];
    const rawRecall: Record<number, number> = {};
    for (const k of KS) rawRecall[k] = recallAt(raw, q.evidence, k);
    reference.push({ category: q.category, recall: rawRecall });
  }
  if (failures.length) log(`${failures.length} retrieved memories without provenance, e.g. ${failures[0]}`);

  latencies.sort((a, b) => a - b);
  contextTokens.sort((a, b) => a - b);
  const result = {
    benchmark: 'locomo',
    date: new Date().toISOString(),
    commit: gitCommit(),
    machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model ?? 'unknown', node: process.version },
    engine: flags.url ? 'external' : flags.engine,
    conversations: samples.length,
    sessions: [...sessionsBySample.values()].reduce((n, s) => n + s.length, 0),
    turns: [...sessionsBySample.values()].reduce((n, s) => n + s.reduce((m, x) => m + x.turns.length, 0), 0),
    questions: questions.length,
    questions_skipped_no_evidence: skippedNoEvidence,
    add_statuses: statuses,
    jobs: jobStatus,
    memories_created: memoriesCreated,
    memories_stored_active: memoriesStored,
    pending_candidates: pendingBuffered,
    ingestion_seconds: ingestMs / 1000,
    adds_accepted_seconds: acceptedMs / 1000,
    retrieve_ms: { p50: percentile(latencies, 50), p95: percentile(latencies, 95) },
    context_tokens_per_answer: {
      mean: contextTokens.reduce((a, b) => a + b, 0) / Math.max(1, contextTokens.length),
      p50: percentile(contextTokens, 50),
    },
    service: aggregate(service),
    reference_bm25_raw_turns: aggregate(reference),
    paper_dragon: { raw_turns: { 5: 56.7, 10: 66.2, 25: 76.7 }, observations: { 5: 56.2, 10: 61.3, 25: 67.5 } },
  };

  const md = markdownOf(result);
  const outDir = path.resolve(ROOT, flags.out);
  mkdirSync(outDir, { recursive: true });
  const stamp = result.date.replace(/[:.]/g, '-');
  writeFileSync(path.join(outDir, `locomo-${stamp}.json`), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(path.join(outDir, `locomo-${stamp}.md`), md);
  console.log(md);
  log(`wrote ${path.relative(ROOT, path.join(outDir, `locomo-${stamp}.json`))} and .md`);
  return 0;
}

type Result = {
  date: string;
  commit: string | null;
  engine: string;
  conversations: number;
  sessions: number;
  turns: number;
  questions: number;
  questions_skipped_no_evidence: number;
  memories_created: number;
  memories_stored_active: number;
  pending_candidates: { buffered: number; promoted: number };
  ingestion_seconds: number;
  retrieve_ms: { p50: number; p95: number };
  context_tokens_per_answer: { mean: number; p50: number };
  service: Record<string, Scores>;
  reference_bm25_raw_turns: Record<string, Scores>;
  machine: { cpus: number; cpu: string; node: string };
};

function markdownOf(r: Result): string {
  const pct = (x: number) => fmt(100 * x, 1);
  const keys = ['1', '2', '3', '4', '5', 'overall'].filter((k) => r.service[k]);
  const header = ['category', 'questions', 'service R@5', 'R@10', 'R@25', 'raw-turn BM25 R@5', 'R@10', 'R@25'];
  const body = keys.map((k) => [
    k === 'overall' ? '**overall**' : `${k} ${CATEGORY_NAMES[Number(k)] ?? ''}`,
    String(r.service[k].n),
    ...KS.map((x) => pct(r.service[k].recall[x])),
    ...KS.map((x) => pct(r.reference_bm25_raw_turns[k].recall[x])),
  ]);
  body.push(['LoCoMo paper, DRAGON (raw turns / observations)', '', '56.7 / 56.2', '66.2 / 61.3', '76.7 / 67.5', '', '', '']);
  const lines = [
    `LoCoMo recall (%) — ${r.date.slice(0, 10)}, commit ${r.commit ?? 'unknown'}, ${r.engine}, ${r.conversations} conversations, ${r.sessions} sessions, ${r.turns} turns, ${r.questions} questions (${r.questions_skipped_no_evidence} without usable evidence skipped); ${r.machine.cpus} × ${r.machine.cpu}, Node ${r.machine.node}`,
    '',
    markdownTable(header, body, [false, true, true, true, true, true, true, true]),
    '',
    markdownTable(
      ['memories created', 'active memories', 'pending buffered / promoted', 'ingestion (s)', 'retrieve p50 (ms)', 'retrieve p95 (ms)', 'context tokens per answer (mean / p50)'],
      [
        [
          String(r.memories_created),
          String(r.memories_stored_active),
          `${r.pending_candidates.buffered} / ${r.pending_candidates.promoted}`,
          fmt(r.ingestion_seconds),
          fmt(r.retrieve_ms.p50),
          fmt(r.retrieve_ms.p95),
          `${fmt(r.context_tokens_per_answer.mean, 0)} / ${fmt(r.context_tokens_per_answer.p50, 0)}`,
        ],
      ],
      [true, true, true, true, true, true, true],
    ),
    '',
  ];
  return lines.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().then(
    (code) => process.exit(code),
    (err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
