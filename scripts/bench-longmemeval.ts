/**
 * `npm run bench:longmemeval -- --data /tmp/lme/s [--limit N] [--engine pglite|postgres] [--concurrency N]`
 *
 * LongMemEval retrieval benchmark through the public HTTP API of the built app (`npm start`: apps/web/server.ts), on the
 * development half unpacked from ../shared/bench/longmemeval-dev (README there):
 *  1. one fresh end user per non-abstention question; each haystack session, in date order, is one add
 *     (longmemeval.ts planAdds: real roles, `observed_at` = the session's date, an opaque event id); users
 *     are ingested `--concurrency` at a time, then every extraction job is awaited;
 *  2. each question is retrieved once with limit 50 (cold: the user's first retrieve), twice more the same
 *     way (hot), and once with the defaults (context tokens); every item's provenance is mapped back to the
 *     haystack (event id -> session, message_indices -> turns);
 *  3. recall_all / recall_any / covered fraction at k = 5, 10, 25, 50 at session and turn level, and the
 *     answer-words rate at k = 10, per question type and overall, for the service and, in the same run, for
 *     BM25 over rounds (a user turn with the assistant turns after it).
 * Writes bench/results/longmemeval-<stamp>.json and .md and prints the Markdown tables.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sha256Hex } from '../packages/core/src/crypto';
import * as bench from './bench-http';
import * as stats from './bench-lib';
import {
  ANSWER_WORDS_K,
  type AddPlan,
  KS,
  type LmeQuestion,
  type PlannedAdd,
  type QuestionScores,
  SHORT_ANSWER_WORDS,
  aggregate,
  answerTerms,
  answerWordsFound,
  newestEvidence,
  newestFirst,
  coverageOfItem,
  evidenceOf,
  loadQuestions,
  planAdds,
  retrieveBody,
  roundRetriever,
  scoreRanking,
} from './longmemeval';
import { markdownOf } from './longmemeval-report';

interface Flags extends bench.ServerFlags {
  data: string | null;
  limit: number | null;
  concurrency: number;
  types: string[];
  trace: boolean;
}

const USAGE = `Usage: npm run bench:longmemeval -- --data <dir> [flags]
  --data <dir>           the unpacked LongMemEval files (tar xzf ../shared/bench/longmemeval-dev/s.tar.gz -C /tmp/lme)
  --limit <n>            only n questions, taking each question type in turn (development runs)
  --concurrency <n>      end users ingested at the same time (default 4)
  --type <question_type> only questions of this type (repeatable; development runs)
  --trace                also write each question's top 10 items (rank, category, score, session, turns, whether
                         they are evidence, the first words) and its whole limit-50 ranking (the same without the
                         words) to the JSON, to see why a question was missed or to try another order offline
${bench.SERVER_FLAGS_USAGE}`;

function parseFlags(argv: string[]): Flags {
  const f: Flags = { ...bench.serverFlagDefaults(), data: null, limit: null, concurrency: 4, types: [], trace: false };
  bench.readArgs(
    argv,
    {
      ...bench.serverFlagHandlers(f),
      '--data': (value) => (f.data = bench.cliPath(value())),
      '--limit': (value) => (f.limit = bench.positiveInt('--limit', value())),
      '--concurrency': (value) => (f.concurrency = bench.positiveInt('--concurrency', value())),
      '--type': (value) => f.types.push(value()),
      '--trace': () => (f.trace = true),
    },
    USAGE,
  );
  return f;
}

async function main(): Promise<number> {
  const flags = parseFlags(process.argv.slice(2));
  if (!flags.data || !existsSync(flags.data)) {
    console.log(
      `LongMemEval data not found${flags.data ? ` at ${flags.data}` : ''}: skipping (unpack ../shared/bench/longmemeval-dev/s.tar.gz and pass --data <dir>).`,
    );
    return 0;
  }
  const { questions, abstentionLeftOut } = loadQuestions(flags.data, flags.limit, flags.types);
  return bench.withBenchServer(flags, 'longmemeval', (api, store) => run(flags, questions, abstentionLeftOut, api, store));
}

interface RetrievedItem {
  content: string;
  category: string;
  relevance_score?: number;
  provenance: { event_id?: string; message_indices?: number[] } | null;
}

interface RetrieveResponse {
  data: RetrievedItem[];
  cached: boolean;
  context_token_count: number | null;
}

/** Runs `fn` over `items`, at most `limit` at a time. */
async function forEachLimit<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

interface Ingested {
  statuses: Record<string, number>;
  /** Event id -> add status (`queued`, or why not), to tell whether an evidence session was kept out. */
  statusOf: Map<string, string>;
  jobIds: string[];
  /** Adds the API refused (kept going: one bad session should not end a long run). */
  errors: string[];
}

async function ingest(api: bench.Api, plans: Plan[], concurrency: number): Promise<Ingested> {
  const out: Ingested = { statuses: {}, statusOf: new Map(), jobIds: [], errors: [] };
  await forEachLimit(plans, concurrency, async ({ user, plan }) => {
    for (const add of plan.adds) {
      try {
        const res = await api.call<{ job_id: string | null; status: string }>('POST', '/v1/memories/add', {
          external_user_id: user,
          messages: add.messages,
          source: { service: 'longmemeval', event_id: add.eventId, observed_at: add.observedAt },
        });
        out.statuses[res.status] = (out.statuses[res.status] ?? 0) + 1;
        out.statusOf.set(add.eventId, res.status);
        if (res.job_id) out.jobIds.push(res.job_id);
      } catch (err) {
        out.errors.push(err instanceof Error ? err.message : String(err));
        out.statusOf.set(add.eventId, 'error');
      }
    }
  });
  return out;
}

const retrieve = (api: bench.Api, body: Record<string, unknown>) => api.call<RetrieveResponse>('POST', '/v1/memories/retrieve', body);

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const value = await fn();
  return [value, performance.now() - t0];
}

/** One question: its retrieves, their latencies, and the service's and the reference's scores. */
interface Asked {
  service: QuestionScores & { questionId: string };
  reference: QuestionScores;
  coldMs: number;
  coldCached: boolean;
  hotMs: number[];
  hotCached: number;
  contextTokens: number;
  /** The category of each item of the limit-50 retrieve, in rank order. */
  categories: string[];
  /** Items whose provenance does not lead to one of this question's sessions. */
  unmapped: number;
  /** With `--trace`: the question, its evidence turns ("session:turn") and sessions, the top 10 items, the whole ranking. */
  trace?: {
    question: string;
    answer: string;
    type: string;
    evidence_turns: string[];
    evidence_sessions: number[];
    top_10: TracedItem[];
    /** Every item of the limit-50 retrieve, without text: enough to try another order offline. */
    ranking: Omit<TracedItem, 'text'>[];
  };
}

interface TracedItem {
  rank: number;
  category: string;
  score: number | null;
  sessions: number[];
  turns: string[];
  evidence: boolean;
  text: string;
}

async function ask(api: bench.Api, { q, user, plan }: Plan, trace: boolean): Promise<Asked> {
  // Nothing has retrieved this user since ingestion, so the first retrieve loads its memories into the hot tier.
  const body = retrieveBody(q, user, 50);
  const [res, coldMs] = await timed(() => retrieve(api, body));
  const hotMs: number[] = [];
  let hotCached = 0;
  for (let i = 0; i < 2; i++) {
    const [again, ms] = await timed(() => retrieve(api, body));
    hotMs.push(ms);
    if (again.cached) hotCached++;
  }
  // What an agent would put in its prompt: the default retrieve (10 items, 500-token budget).
  const ctx = await retrieve(api, retrieveBody(q, user));

  const byEvent = new Map<string, PlannedAdd>(plan.adds.map((a) => [a.eventId, a]));
  const coverage = res.data.map((item) => coverageOfItem(item.provenance, byEvent));
  const evidence = evidenceOf(q);
  const terms = answerTerms(q.answer);
  const newest = newestEvidence(q);
  const rounds = roundRetriever(q)(q.question, Math.max(...KS));
  const serviceRanking = coverage.map((c) => c ?? { sessions: [], turns: [] });
  const traced = (item: RetrieveResponse['data'][number], rank: number) => ({
    rank: rank + 1,
    category: item.category,
    score: item.relevance_score ?? null,
    sessions: serviceRanking[rank].sessions,
    turns: serviceRanking[rank].turns,
    evidence: serviceRanking[rank].turns.some((t) => evidence.turns.has(t)),
  });
  return {
    service: {
      questionId: q.question_id,
      type: q.question_type,
      ...scoreRanking(serviceRanking, evidence),
      answerWords: answerWordsFound(
        terms,
        res.data.slice(0, ANSWER_WORDS_K).map((i) => i.content),
      ),
      newestFirst: newestFirst(serviceRanking, evidence, newest),
    },
    reference: {
      type: q.question_type,
      ...scoreRanking(
        rounds.map((r) => r.coverage),
        evidence,
      ),
      answerWords: answerWordsFound(
        terms,
        rounds.slice(0, ANSWER_WORDS_K).map((r) => r.text),
      ),
      newestFirst: newestFirst(
        rounds.map((r) => r.coverage),
        evidence,
        newest,
      ),
    },
    coldMs,
    coldCached: res.cached,
    hotMs,
    hotCached,
    contextTokens: ctx.context_token_count ?? 0,
    categories: res.data.map((i) => i.category),
    unmapped: coverage.filter((c) => c === null).length,
    trace: trace
      ? {
          question: q.question,
          answer: String(q.answer),
          type: q.question_type,
          evidence_turns: [...evidence.turns],
          evidence_sessions: [...evidence.sessions],
          top_10: res.data.slice(0, ANSWER_WORDS_K).map((item, rank) => ({ ...traced(item, rank), text: item.content.slice(0, 200) })),
          ranking: res.data.map(traced),
        }
      : undefined,
  };
}

/** What ingestion left, saved beside a kept data dir so that a `--reuse` run finds its users and reports it again. */
interface IngestSummary {
  runTag: string;
  questionIds: string[];
  statuses: Record<string, number>;
  evidenceNotQueued: Record<string, number>;
  errors: string[];
  jobs: bench.JobTotals;
  memoriesStored: number;
  ingestMs: number;
  acceptedMs: number;
}

const STATE_FILE = 'bench-longmemeval.json';

function loadIngested(store: bench.BenchStore, questions: LmeQuestion[]): IngestSummary {
  const file = path.join(store.dataDir ?? '', STATE_FILE);
  if (!existsSync(file)) throw new Error(`--reuse: ${file} not found (keep a bench:longmemeval run with --keep first)`);
  const saved = JSON.parse(readFileSync(file, 'utf8')) as IngestSummary;
  const ingested = new Set(saved.questionIds);
  const missing = questions.filter((q) => !ingested.has(q.question_id));
  if (missing.length) throw new Error(`--reuse: ${missing.length} questions were not ingested in that run (e.g. ${missing[0].question_id})`);
  bench.log(`reusing the ingestion of run ${saved.runTag}: ${saved.memoriesStored} memories, no adds`);
  return saved;
}

async function ingestAll(flags: Flags, api: bench.Api, plans: Plan[], runTag: string): Promise<IngestSummary> {
  await bench.registerWriter(api, 'longmemeval', 'LongMemEval benchmark');
  const adds = plans.reduce((n, p) => n + p.plan.adds.length, 0);
  const messages = plans.reduce((n, p) => n + p.plan.messages, 0);
  bench.log(`ingesting ${plans.length} questions' haystacks: ${adds} adds, ${messages} messages, ${flags.concurrency} users at a time`);
  const ingestStart = performance.now();
  const ingested = await ingest(api, plans, flags.concurrency);
  const acceptedMs = performance.now() - ingestStart;
  const jobs = await bench.waitForJobs(api, ingested.jobIds);
  const ingestMs = performance.now() - ingestStart;
  bench.log(`ingested in ${stats.fmt(ingestMs / 1000)} s (adds accepted in ${stats.fmt(acceptedMs / 1000)} s); jobs ${JSON.stringify(jobs.statuses)}; add statuses ${JSON.stringify(ingested.statuses)}`);
  if (ingested.errors.length) bench.log(`${ingested.errors.length} adds refused, e.g. ${ingested.errors[0]}`);
  const memoriesStored = await bench.countActiveMemories(api, plans.map((p) => p.user));
  // Evidence sessions the service did not queue for extraction (the gate's `passthrough`/`L2`, or an error).
  const evidenceNotQueued: Record<string, number> = {};
  for (const { q, plan } of plans) {
    const evidence = evidenceOf(q).sessions;
    for (const add of plan.adds) {
      const status = ingested.statusOf.get(add.eventId) ?? 'not sent';
      if (evidence.has(add.session) && status !== 'queued') evidenceNotQueued[status] = (evidenceNotQueued[status] ?? 0) + 1;
    }
  }
  const questionIds = plans.map((p) => p.q.question_id);
  return { runTag, questionIds, statuses: ingested.statuses, evidenceNotQueued, errors: ingested.errors, jobs, memoriesStored, ingestMs, acceptedMs };
}

type Plan = { q: LmeQuestion; user: string; plan: AddPlan };

async function run(flags: Flags, questions: LmeQuestion[], abstentionLeftOut: number, api: bench.Api, store: bench.BenchStore): Promise<number> {
  // 1. Ingest, or find what a kept run ingested.
  const saved = store.reused ? loadIngested(store, questions) : null;
  const runTag = saved?.runTag ?? Date.now().toString(36);
  const plans: Plan[] = questions.map((q) => {
    const user = `lme-${sha256Hex(`${q.question_id}\n${runTag}`).slice(0, 16)}`;
    return { q, user, plan: planAdds(q, user) };
  });
  const adds = plans.reduce((n, p) => n + p.plan.adds.length, 0);
  const messages = plans.reduce((n, p) => n + p.plan.messages, 0);
  const ingested = saved ?? (await ingestAll(flags, api, plans, runTag));
  if (!saved && store.dataDir) writeFileSync(path.join(store.dataDir, STATE_FILE), JSON.stringify(ingested));
  const { jobs, ingestMs, acceptedMs, memoriesStored, evidenceNotQueued } = ingested;

  // 2. Retrieve and score, one question at a time (nothing else runs: the latencies are the service's own).
  const asked: Asked[] = [];
  for (const [n, p] of plans.entries()) {
    if (n % 25 === 0) bench.log(`retrieving ${n + 1}/${plans.length}`);
    asked.push(await ask(api, p, flags.trace));
  }
  const unmapped = asked.reduce((n, a) => n + a.unmapped, 0);
  const categories: Record<string, number> = {};
  for (const c of asked.flatMap((a) => a.categories)) categories[c] = (categories[c] ?? 0) + 1;
  const contextTokens = asked.map((a) => a.contextTokens).sort((a, b) => a - b);
  const itemsReturned = asked.map((a) => a.categories.length);
  if (unmapped) bench.log(`${unmapped} retrieved items whose provenance does not map to a haystack session`);

  const result = {
    benchmark: 'longmemeval',
    setting: 's',
    date: new Date().toISOString(),
    ...bench.runContext(),
    engine: flags.url ? 'external' : flags.engine,
    ...(saved ? { reused_ingestion_of: saved.runTag } : {}),
    concurrency: flags.concurrency,
    questions: questions.length,
    abstention_left_out: abstentionLeftOut,
    sessions: questions.reduce((n, q) => n + q.haystack_sessions.length, 0),
    adds,
    messages_sent: messages,
    messages_dropped_empty: plans.reduce((n, p) => n + p.plan.droppedEmpty, 0),
    messages_cut: plans.reduce((n, p) => n + p.plan.cut, 0),
    add_statuses: ingested.statuses,
    evidence_adds_not_queued: evidenceNotQueued,
    add_errors: { count: ingested.errors.length, examples: ingested.errors.slice(0, 5) },
    jobs: jobs.statuses,
    memories_created: jobs.memoriesCreated,
    memories_stored_active: memoriesStored,
    passages_indexed: jobs.passagesIndexed,
    pending_candidates: jobs.pending,
    ingestion_seconds: ingestMs / 1000,
    adds_accepted_seconds: acceptedMs / 1000,
    messages_per_second: messages / (ingestMs / 1000),
    /** cold: each user's first retrieve after ingestion; hot: the same query twice more. `cached: true` counts. */
    retrieve_cold_ms: stats.latencyStats(asked.map((a) => a.coldMs)),
    retrieve_hot_ms: stats.latencyStats(asked.flatMap((a) => a.hotMs)),
    hot_tier_hits: { cold: asked.filter((a) => a.coldCached).length, hot: asked.reduce((n, a) => n + a.hotCached, 0) },
    items_returned_at_limit_50: { mean: itemsReturned.reduce((a, b) => a + b, 0) / Math.max(1, itemsReturned.length), min: Math.min(...itemsReturned) },
    retrieved_categories: categories,
    unmapped_items: unmapped,
    context_tokens_per_answer: {
      mean: contextTokens.reduce((a, b) => a + b, 0) / Math.max(1, contextTokens.length),
      p50: stats.percentile(contextTokens, 50),
    },
    answer_words: { k: ANSWER_WORDS_K, max_content_words: SHORT_ANSWER_WORDS },
    service: aggregate(asked.map((a) => a.service)),
    reference_bm25_rounds: aggregate(asked.map((a) => a.reference)),
    per_question: asked.map((a) => ({
      question_id: a.service.questionId,
      type: a.service.type,
      items: a.categories.length,
      service: { turn_all: a.service.turn.recall_all, session_all: a.service.session.recall_all, answer_words: a.service.answerWords, newest_first: a.service.newestFirst ?? null },
      bm25_rounds: { turn_all: a.reference.turn.recall_all, session_all: a.reference.session.recall_all, answer_words: a.reference.answerWords, newest_first: a.reference.newestFirst ?? null },
      ...(a.trace ? { trace: a.trace } : {}),
    })),
  };
  bench.writeReport(flags.out, 'longmemeval', result.date, result, markdownOf(result));
  return 0;
}

bench.runIfMain(import.meta.filename, main);
