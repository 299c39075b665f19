/**
 * `npm run bench:longmemeval`'s result: the JSON shape written to the results folder and its Markdown report
 * (recall per type and k for the service and for BM25 over raw rounds, answer words, cost and latency).
 */
import * as stats from './bench-lib';
import { ANSWER_WORDS_K, type GroupScores, KS, SHORT_ANSWER_WORDS } from './longmemeval';

type Result = {
  date: string;
  commit: string | null;
  machine: { cpus: number; cpu: string; node: string };
  engine: string;
  /** Set when the run used a kept data dir (`--reuse`): the ingestion figures are that run's. */
  reused_ingestion_of?: string;
  questions: number;
  abstention_left_out: number;
  sessions: number;
  adds: number;
  messages_sent: number;
  messages_dropped_empty: number;
  messages_cut: number;
  add_statuses: Record<string, number>;
  evidence_adds_not_queued: Record<string, number>;
  add_errors: { count: number };
  memories_created: number;
  memories_stored_active: number;
  passages_indexed: number | null;
  ingestion_seconds: number;
  messages_per_second: number;
  retrieve_cold_ms: stats.LatencyStats;
  retrieve_hot_ms: stats.LatencyStats;
  hot_tier_hits: { cold: number; hot: number };
  context_tokens_per_answer: { mean: number; p50: number };
  unmapped_items: number;
  service: Record<string, GroupScores>;
  reference_bm25_rounds: Record<string, GroupScores>;
};

export function markdownOf(r: Result): string {
  const pct = (x: number | null) => (x === null ? '–' : stats.fmt(100 * x, 1));
  const types = Object.keys(r.service)
    .filter((k) => k !== 'overall')
    .sort();
  const label = (k: string) => (k === 'overall' ? '**overall**' : k);
  const recallTable = (level: 'turn' | 'session', metric: 'recall_all' | 'recall_any') =>
    stats.markdownTable(
      ['question type', 'questions', ...KS.map((k, i) => (i ? `@${k}` : `service @${k}`)), ...KS.map((k, i) => (i ? `@${k}` : `round BM25 @${k}`))],
      [...types, 'overall'].map((t) => [
        label(t),
        String(r.service[t].n),
        ...KS.map((k) => pct(r.service[t][level][metric][k])),
        ...KS.map((k) => pct(r.reference_bm25_rounds[t][level][metric][k])),
      ]),
      [false, ...Array<boolean>(1 + 2 * KS.length).fill(true)],
    );
  const sections: [string, string][] = [
    ['Turn level, recall_all (%): every evidence turn (has_answer) is covered by the top k (LongMemEval’s Recall@k)', recallTable('turn', 'recall_all')],
    ['Turn level, recall_any (%): at least one evidence turn in the top k', recallTable('turn', 'recall_any')],
    ['Session level, recall_all (%): every evidence session is covered by the top k', recallTable('session', 'recall_all')],
    ['Session level, recall_any (%)', recallTable('session', 'recall_any')],
    [
      `Answer words in the top ${ANSWER_WORDS_K} (%): every content word of a short answer (string, ≤ ${SHORT_ANSWER_WORDS} content words) appears in the retrieved texts`,
      stats.markdownTable(
        ['question type', 'short answers', 'service', 'round BM25'],
        [...types, 'overall'].map((t) => [
          label(t),
          String(r.service[t].answer_words_10.eligible),
          pct(r.service[t].answer_words_10.rate),
          pct(r.reference_bm25_rounds[t].answer_words_10.rate),
        ]),
        [false, true, true, true],
      ),
    ],
    [
      `Newest value first in the top ${ANSWER_WORDS_K} (%): of the questions whose evidence spans older and newer sessions (knowledge updates), those whose highest-ranked evidence item is from the newest session`,
      stats.markdownTable(
        ['question type', 'questions with older and newer evidence', 'service', 'round BM25'],
        [...types, 'overall']
          .filter((t) => (r.service[t].newest_first_10?.eligible ?? 0) > 0)
          .map((t) => [
            label(t),
            String(r.service[t].newest_first_10.eligible),
            pct(r.service[t].newest_first_10.rate),
            pct(r.reference_bm25_rounds[t].newest_first_10.rate),
          ]),
        [false, true, true, true],
      ),
    ],
    [
      r.reused_ingestion_of ? `Ingestion and retrieval (ingestion figures from run ${r.reused_ingestion_of}, reused with --reuse)` : 'Ingestion and retrieval',
      stats.markdownTable(
        [
          'sessions / adds',
          'messages sent (empty dropped / cut)',
          'memories created',
          'active memories',
          'passages indexed',
          'ingestion (s)',
          'messages/s',
          `cold retrieve p50 / p95 (ms, ${r.retrieve_cold_ms.n})`,
          `hot retrieve p50 / p95 (ms, ${r.retrieve_hot_ms.n})`,
          'hot-tier hits cold / hot',
          'context tokens per answer (mean / p50)',
        ],
        [
          [
            `${r.sessions} / ${r.adds}`,
            `${r.messages_sent} (${r.messages_dropped_empty} / ${r.messages_cut})`,
            String(r.memories_created),
            String(r.memories_stored_active),
            r.passages_indexed === null ? 'not reported' : String(r.passages_indexed),
            stats.fmt(r.ingestion_seconds),
            stats.fmt(r.messages_per_second),
            `${stats.fmt(r.retrieve_cold_ms.p50)} / ${stats.fmt(r.retrieve_cold_ms.p95)}`,
            `${stats.fmt(r.retrieve_hot_ms.p50)} / ${stats.fmt(r.retrieve_hot_ms.p95)}`,
            `${r.hot_tier_hits.cold} / ${r.hot_tier_hits.hot}`,
            `${stats.fmt(r.context_tokens_per_answer.mean, 0)} / ${stats.fmt(r.context_tokens_per_answer.p50, 0)}`,
          ],
        ],
        Array<boolean>(11).fill(true),
      ),
    ],
  ];
  const notQueued = Object.entries(r.evidence_adds_not_queued);
  const notes = [
    `Add statuses: ${JSON.stringify(r.add_statuses)}${notQueued.length ? `; evidence-session adds not queued: ${notQueued.map(([s, n]) => `${n} ${s}`).join(', ')}` : ''}.`,
    r.add_errors.count ? `${r.add_errors.count} adds refused by the API (see add_errors in the JSON).` : '',
    r.unmapped_items ? `${r.unmapped_items} retrieved items did not map to a haystack session.` : '',
  ].filter(Boolean);
  return [
    `LongMemEval S (development half) retrieval — ${r.date.slice(0, 10)}, commit ${r.commit ?? 'unknown'}, ${r.engine}, ${r.questions} questions (${r.abstention_left_out} abstention left out), ${r.sessions} sessions; ${r.machine.cpus} × ${r.machine.cpu}, Node ${r.machine.node}`,
    '',
    ...sections.flatMap(([title, table]) => [title, '', table, '']),
    ...notes.map((p) => `${p}\n`),
  ].join('\n');
}
