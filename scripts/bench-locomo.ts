/**
 * `npm run bench:locomo -- --data ../shared/bench/locomo/locomo10.json`
 *
 * LoCoMo retrieval benchmark through the public HTTP API of the built app (`npm start`: apps/web/server.ts):
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
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { bm25Top, buildIndex } from '../packages/core/src/retrieval/score';
import { ROOT } from '../tests/integration/server';
import {
  type Api,
  SERVER_FLAGS_USAGE,
  type ServerFlags,
  cliPath,
  countActiveMemories,
  log,
  positiveInt,
  readArgs,
  registerWriter,
  runContext,
  runIfMain,
  serverFlagDefaults,
  serverFlagHandlers,
  waitForJobs,
  withBenchServer,
  writeReport,
} from './bench-http';
import { fmt, latencyStats, type LatencyStats, markdownTable, percentile } from './bench-lib';
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

interface RetrievedMemory {
  id: string;
  content: string;
  category: string;
  relevance_score?: number | null;
  provenance: { event_id?: string; message_indices?: number[] } | null;
}

// ---------------------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------------------

interface Flags extends ServerFlags {
  data: string;
  conversations: number | null;
}

const USAGE = `Usage: npm run bench:locomo -- [flags]
  --data <path>          locomo10.json (default ../shared/bench/locomo/locomo10.json)
  --conversations <n>    only the first n conversations (development runs)
${SERVER_FLAGS_USAGE}`;

function parseFlags(argv: string[]): Flags {
  const f: Flags = { ...serverFlagDefaults(), data: path.resolve(ROOT, '../shared/bench/locomo/locomo10.json'), conversations: null };
  readArgs(
    argv,
    {
      ...serverFlagHandlers(f),
      '--data': (value) => (f.data = cliPath(value())),
      '--conversations': (value) => (f.conversations = positiveInt('--conversations', value())),
    },
    USAGE,
  );
  return f;
}

async function main(): Promise<number> {
  const flags = parseFlags(process.argv.slice(2));
  if (flags.reuse) throw new Error('--reuse is for bench:longmemeval (LoCoMo ingests in minutes)');
  if (!existsSync(flags.data)) {
    console.log(`LoCoMo data not found at ${flags.data}: skipping (pass --data <path to locomo10.json>).`);
    return 0;
  }
  const samples = (JSON.parse(readFileSync(flags.data, 'utf8')) as Sample[]).slice(0, flags.conversations ?? undefined);
  return withBenchServer(flags, 'locomo', (api) => run(flags, samples, api));
}

async function run(flags: Flags, samples: Sample[], api: Api): Promise<number> {
  await registerWriter(api, 'locomo', 'LoCoMo benchmark');

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
  const jobs = await waitForJobs(api, jobIds);
  const ingestMs = performance.now() - ingestStart;
  log(`ingested in ${fmt(ingestMs / 1000)} s (adds accepted in ${fmt(acceptedMs / 1000)} s); jobs ${JSON.stringify(jobs.statuses)}; add statuses ${JSON.stringify(statuses)}`);
  const memoriesStored = await countActiveMemories(api, samples.map(userOf));

  // 2. Questions.
  const { questions, skippedNoEvidence } = locomoQuestions(samples, sessionsBySample);
  log(`asking ${questions.length} questions (${skippedNoEvidence} skipped: no usable evidence)`);

  const service: { category: number; recall: Record<number, number> }[] = [];
  const reference: { category: number; recall: Record<number, number> }[] = [];
  const latencies: number[] = [];
  // The hot tier is per process and tagged with the user's memory version, so a user's first retrieve after
  // ingestion loads and indexes its memories (cold) and later ones reuse them (hot).
  const cold: number[] = [];
  const hot: number[] = [];
  const hotTierHits = { cold: 0, hot: 0 };
  const retrievedUsers = new Set<string>();
  const contextTokens: number[] = [];
  const retrievers = new Map(samples.map((s) => [s.sample_id, rawTurnRetriever(sessionsBySample.get(s.sample_id) ?? [])]));
  const failures: string[] = [];
  /** Each question's limit-25 ranking as coverage, so another order can be tried offline. */
  const perQuestion: { category: number; question: string; evidence: string[]; ranking: { session: number; dia_ids: string[]; category: string; score: number | null }[] }[] = [];
  for (const q of questions) {
    const sessions = sessionsBySample.get(q.sample) ?? [];
    const bySession = new Map(sessions.map((s) => [s.n, s]));
    const user = userOf(samples.find((s) => s.sample_id === q.sample) as Sample);
    const t0 = performance.now();
    const res = await api.call<{ data: RetrievedMemory[]; cached: boolean }>('POST', '/v1/memories/retrieve', {
      external_user_id: user,
      query: q.question,
      limit: 25,
    });
    const ms = performance.now() - t0;
    latencies.push(ms);
    const tier = retrievedUsers.has(user) ? 'hot' : 'cold';
    (tier === 'hot' ? hot : cold).push(ms);
    if (res.cached) hotTierHits[tier]++;
    retrievedUsers.add(user);
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
    perQuestion.push({
      category: q.category,
      question: q.question,
      evidence: q.evidence,
      ranking: res.data.map((m, i) => ({ session: Number(/:session_(\d+):/.exec(m.provenance?.event_id ?? '')?.[1] ?? 0), dia_ids: covered[i], category: m.category, score: m.relevance_score ?? null })),
    });

    // What an agent would put in its prompt: the default retrieve (10 memories, 500-token budget).
    const ctx = await api.call<{ context_token_count: number | null }>('POST', '/v1/memories/retrieve', {
      external_user_id: user,
      query: q.question,
    });
    contextTokens.push(ctx.context_token_count ?? 0);

    const raw = retrievers.get(q.sample)?.(q.question, 25) ?? [];
    const rawRecall: Record<number, number> = {};
    for (const k of KS) rawRecall[k] = recallAt(raw, q.evidence, k);
    reference.push({ category: q.category, recall: rawRecall });
  }
  if (failures.length) log(`${failures.length} retrieved memories without provenance, e.g. ${failures[0]}`);

  contextTokens.sort((a, b) => a - b);
  const result = {
    benchmark: 'locomo',
    date: new Date().toISOString(),
    ...runContext(),
    engine: flags.url ? 'external' : flags.engine,
    conversations: samples.length,
    sessions: [...sessionsBySample.values()].reduce((n, s) => n + s.length, 0),
    turns: [...sessionsBySample.values()].reduce((n, s) => n + s.reduce((m, x) => m + x.turns.length, 0), 0),
    questions: questions.length,
    questions_skipped_no_evidence: skippedNoEvidence,
    add_statuses: statuses,
    jobs: jobs.statuses,
    memories_created: jobs.memoriesCreated,
    memories_stored_active: memoriesStored,
    pending_candidates: jobs.pending,
    ingestion_seconds: ingestMs / 1000,
    adds_accepted_seconds: acceptedMs / 1000,
    retrieve_ms: latencyStats(latencies),
    /** cold: each user's first retrieve; hot: the rest. `hot_tier_hits` counts responses with `cached: true`. */
    retrieve_cold_ms: latencyStats(cold),
    retrieve_hot_ms: latencyStats(hot),
    hot_tier_hits: hotTierHits,
    context_tokens_per_answer: {
      mean: contextTokens.reduce((a, b) => a + b, 0) / Math.max(1, contextTokens.length),
      p50: percentile(contextTokens, 50),
    },
    service: aggregate(service),
    reference_bm25_raw_turns: aggregate(reference),
    per_question: perQuestion,
    paper_dragon: { raw_turns: { 5: 56.7, 10: 66.2, 25: 76.7 }, observations: { 5: 56.2, 10: 61.3, 25: 67.5 } },
  };

  writeReport(flags.out, 'locomo', result.date, result, markdownOf(result));
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
  retrieve_ms: LatencyStats;
  retrieve_cold_ms: LatencyStats;
  retrieve_hot_ms: LatencyStats;
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
      [
        'memories created',
        'active memories',
        'pending buffered / promoted',
        'ingestion (s)',
        'retrieve p50 (ms)',
        'retrieve p95 (ms)',
        `cold p50 / p95 (ms, ${r.retrieve_cold_ms.n})`,
        `hot p50 / p95 (ms, ${r.retrieve_hot_ms.n})`,
        'context tokens per answer (mean / p50)',
      ],
      [
        [
          String(r.memories_created),
          String(r.memories_stored_active),
          `${r.pending_candidates.buffered} / ${r.pending_candidates.promoted}`,
          fmt(r.ingestion_seconds),
          fmt(r.retrieve_ms.p50),
          fmt(r.retrieve_ms.p95),
          `${fmt(r.retrieve_cold_ms.p50)} / ${fmt(r.retrieve_cold_ms.p95)}`,
          `${fmt(r.retrieve_hot_ms.p50)} / ${fmt(r.retrieve_hot_ms.p95)}`,
          `${fmt(r.context_tokens_per_answer.mean, 0)} / ${fmt(r.context_tokens_per_answer.p50, 0)}`,
        ],
      ],
      [true, true, true, true, true, true, true, true, true],
    ),
    '',
  ];
  return lines.join('\n');
}

runIfMain(import.meta.filename, main);
