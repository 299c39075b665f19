/**
 * `npm run eval:extraction -- [--lme /tmp/lme/s] [--limit 60] [--locomo <locomo10.json>]`
 *
 * Measures the built-in extractor in process (no server, no database), so a change to its rules can be
 * judged on data it was not written from. Two benchmarks:
 *
 * LongMemEval, development half (../shared/bench/longmemeval-dev/README.md; unpack s.tar.gz to /tmp/lme):
 * every haystack session is one extraction (its turns with their real roles, observed at the session's
 * date), and we report
 *  - evidence user turns covered: the share of user turns with `has_answer: true` that at least one memory
 *    cites (message_indices), overall and per question type; "confident" counts only memories stored at once
 *    (confidence ≥ 0.6; weaker ones wait in pending_candidates, docs/memory-model.md);
 *  - short answers kept: for questions whose answer is a string of at most 6 content words, the share whose
 *    content words all appear in the memories of the evidence sessions (`answer_…` session ids); the same
 *    share over the evidence sessions' raw user turns is the ceiling a user-turn extractor can reach;
 *  - memories per message and extraction milliseconds per 1,000 messages.
 * Abstention questions (`_abs`) are left out of the answer check.
 *
 * LoCoMo (../shared/bench/locomo/README.md): every session is one extraction as `npm run bench:locomo`
 * sends it (every turn `role: user` with the speaker's `name`); for each question with usable evidence, the
 * share of its evidence dia_ids that at least one memory cites: the ceiling of the retrieval recall that the
 * HTTP benchmark measures. Overall and per category.
 *
 * LoCoMo also gets the answer check: for questions outside category 5 whose answer has at most 6 content
 * words, the share whose words all appear in the memories that cite the question's evidence turns.
 *
 * `--show-missed N` prints N uncovered LongMemEval evidence user turns and `--show-missed-answers N` N short
 * answers found in the evidence user turns but not in the memories (to find classes of phrasing the rules
 * miss; write rules from the class, never from the sentence). `--json <file>` writes the numbers.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { extractMemories } from '../packages/core/src/extraction/builtin';
import type { ExtractedMemory } from '../packages/core/src/extraction/types';
import { CATEGORY_NAMES, type Sample, locomoQuestions, sessionsOf, turnText } from './locomo-data';

const ROOT = path.resolve(import.meta.dirname, '..');
/** Memories below this confidence are buffered, not stored (PENDING.maxConfidence in the extraction pipeline). */
const STORED_CONFIDENCE = 0.6;

interface Flags {
  lme: string;
  limit: number | null;
  locomo: string;
  showMissed: number;
  showMissedAnswers: number;
  json: string | null;
}

function parseFlags(argv: string[]): Flags {
  const { values } = parseArgs({
    args: argv,
    options: {
      lme: { type: 'string', default: '/tmp/lme/s' },
      limit: { type: 'string' },
      locomo: { type: 'string', default: path.resolve(ROOT, '../shared/bench/locomo/locomo10.json') },
      'show-missed': { type: 'string', default: '0' },
      'show-missed-answers': { type: 'string', default: '0' },
      json: { type: 'string' },
    },
  });
  return {
    lme: values.lme,
    limit: values.limit === undefined ? null : Number(values.limit),
    locomo: values.locomo,
    showMissed: Number(values['show-missed']),
    showMissedAnswers: Number(values['show-missed-answers']),
    json: values.json ?? null,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Words
// ---------------------------------------------------------------------------------------------------------

const STOP = new Set(
  ('a an the and or but of to in on at for with by from as is are was were be been being it its this that these those ' +
    'i me my you your he she his her we our they their them do does did have has had not no yes so than then there ' +
    'about into over after before up down out off just only also very can will would should could may might').split(' '),
);

function words(text: string): string[] {
  // "we've" is "we": the extractor rewrites contractions, so their endings are not words to look for
  return text.toLowerCase().replace(/[’‘]/g, "'").replace(/'(?:s|re|ve|ll|d|m|t)\b/g, '').match(/[a-z0-9]+/g) ?? [];
}

export function contentWords(text: string): string[] {
  return words(text).filter((w) => !STOP.has(w));
}

function allIn(needles: string[], hay: Set<string>): boolean {
  return needles.every((w) => hay.has(w));
}

/** For --show-missed-answers: the sentences of the turns that hold any of the answer's words. */
function answerSentences(turns: string[], answer: string[]): string[] {
  const out: string[] = [];
  for (const t of turns) {
    for (const s of t.split(/(?<=[.!?])\s+|\n+/)) {
      const ws = new Set(words(s));
      if (answer.some((w) => ws.has(w))) out.push(s.trim().slice(0, 300));
    }
  }
  return out.slice(0, 4);
}

// ---------------------------------------------------------------------------------------------------------
// LongMemEval
// ---------------------------------------------------------------------------------------------------------

interface LmeTurn {
  role: 'user' | 'assistant';
  content: string;
  has_answer?: boolean;
}
interface LmeQuestion {
  question_id: string;
  question_type: string;
  answer: unknown;
  haystack_dates: string[];
  haystack_session_ids: string[];
  haystack_sessions: LmeTurn[][];
}

/** "2023/05/21 (Sun) 19:50" → UTC. */
export function parseLmeDate(s: string): Date {
  const m = /^(\d{4})\/(\d{2})\/(\d{2})(?:\s*\([A-Za-z]+\))?\s*(?:(\d{1,2}):(\d{2}))?/.exec(s.trim());
  if (!m) throw new Error(`unparseable date ${s}`);
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0)));
}

interface Timer {
  ms: number;
  messages: number;
  memories: number;
  confident: number;
}

function timedExtract(timer: Timer, messages: Parameters<typeof extractMemories>[0]['messages'], observedAt: Date): ExtractedMemory[] {
  const t0 = performance.now();
  const r = extractMemories({ messages, observedAt });
  timer.ms += performance.now() - t0;
  timer.messages += messages.length;
  timer.memories += r.memories.length;
  timer.confident += r.memories.filter((m) => m.confidence >= STORED_CONFIDENCE).length;
  return r.memories;
}

interface Share {
  hit: number;
  n: number;
}
const share = (s: Share) => (s.n ? (100 * s.hit) / s.n : 0);
const bump = (s: Share, hit: boolean) => {
  s.n++;
  if (hit) s.hit++;
};

function evalLme(flags: Flags) {
  if (!existsSync(flags.lme)) {
    console.log(`LongMemEval data not found at ${flags.lme}: skipping (tar xzf ../shared/bench/longmemeval-dev/s.tar.gz -C /tmp/lme).`);
    return null;
  }
  // question ids are hashes: sorting by them spreads a --limit over all question types
  const files = readdirSync(flags.lme)
    .filter((f) => f.endsWith('.json'))
    .sort((a, b) => a.replace(/^\d+_/, '').localeCompare(b.replace(/^\d+_/, '')))
    .slice(0, flags.limit ?? undefined);
  const timer: Timer = { ms: 0, messages: 0, memories: 0, confident: 0 };
  let userMessages = 0;
  const turns: Share = { hit: 0, n: 0 };
  const turnsConfident: Share = { hit: 0, n: 0 };
  const byType: Record<string, Share> = {};
  const answers: Share = { hit: 0, n: 0 };
  const answersCeiling: Share = { hit: 0, n: 0 };
  const missed: string[] = [];
  const missedAnswers: string[] = [];
  for (const file of files) {
    const q = JSON.parse(readFileSync(path.join(flags.lme, file), 'utf8')) as LmeQuestion;
    const evidenceWords = new Set<string>();
    const evidenceUserWords = new Set<string>();
    const evidenceUserTurns: string[] = [];
    q.haystack_sessions.forEach((session, si) => {
      const observedAt = parseLmeDate(q.haystack_dates[si]);
      const messages = session.map((t) => ({ role: t.role, content: t.content }));
      userMessages += session.filter((t) => t.role === 'user').length;
      const memories = timedExtract(timer, messages, observedAt);
      const cited = new Set(memories.flatMap((m) => m.messageIndices));
      const citedConfident = new Set(memories.filter((m) => m.confidence >= STORED_CONFIDENCE).flatMap((m) => m.messageIndices));
      session.forEach((t, ti) => {
        if (t.role !== 'user' || !t.has_answer) return;
        bump(turns, cited.has(ti));
        bump(turnsConfident, citedConfident.has(ti));
        bump((byType[q.question_type] ??= { hit: 0, n: 0 }), cited.has(ti));
        if (!cited.has(ti) && missed.length < flags.showMissed) missed.push(`[${q.question_type}] ${t.content.slice(0, 400).replace(/\s+/g, ' ')}`);
      });
      if (q.haystack_session_ids[si].startsWith('answer_')) {
        for (const m of memories) for (const w of words(m.content)) evidenceWords.add(w);
        for (const t of session) if (t.role === 'user') for (const w of words(t.content)) evidenceUserWords.add(w);
        for (const t of session) if (t.role === 'user') evidenceUserTurns.push(t.content);
      }
    });
    const answer = typeof q.answer === 'string' ? contentWords(q.answer) : [];
    if (!q.question_id.endsWith('_abs') && answer.length > 0 && answer.length <= 6) {
      const kept = allIn(answer, evidenceWords);
      bump(answers, kept);
      bump(answersCeiling, allIn(answer, evidenceUserWords));
      if (!kept && allIn(answer, evidenceUserWords) && missedAnswers.length < flags.showMissedAnswers) {
        missedAnswers.push(`[${q.question_type}] ${JSON.stringify(q.answer)} in: ${answerSentences(evidenceUserTurns, answer).join(' … ')}`);
      }
    }
  }
  return {
    files: files.length,
    messages: timer.messages,
    user_messages: userMessages,
    evidence_user_turns: turns.n,
    evidence_user_turns_covered_pct: share(turns),
    evidence_user_turns_covered_confident_pct: share(turnsConfident),
    by_type: Object.fromEntries(Object.entries(byType).sort().map(([k, v]) => [k, { n: v.n, covered_pct: share(v) }])),
    short_answers: answers.n,
    short_answers_kept_pct: share(answers),
    short_answers_in_user_turns_pct: share(answersCeiling),
    memories: timer.memories,
    memories_per_message: timer.memories / Math.max(1, timer.messages),
    memories_per_user_message: timer.memories / Math.max(1, userMessages),
    confident_share_pct: (100 * timer.confident) / Math.max(1, timer.memories),
    ms_per_1000_messages: (1000 * timer.ms) / Math.max(1, timer.messages),
    missed,
    missedAnswers,
  };
}

// ---------------------------------------------------------------------------------------------------------
// LoCoMo
// ---------------------------------------------------------------------------------------------------------

function evalLocomo(flags: Flags) {
  if (!existsSync(flags.locomo)) {
    console.log(`LoCoMo data not found at ${flags.locomo}: skipping (pass --locomo <path to locomo10.json>).`);
    return null;
  }
  const samples = JSON.parse(readFileSync(flags.locomo, 'utf8')) as Sample[];
  const timer: Timer = { ms: 0, messages: 0, memories: 0, confident: 0 };
  const covered = new Set<string>();
  /** The words of the memories that cite each turn. */
  const turnWords = new Map<string, Set<string>>();
  const sessionsBySample = new Map(samples.map((s) => [s.sample_id, sessionsOf(s)]));
  for (const sample of samples) {
    for (const session of sessionsBySample.get(sample.sample_id) ?? []) {
      const messages = session.turns.map((t) => ({ role: 'user' as const, name: t.speaker, content: turnText(t) }));
      for (const m of timedExtract(timer, messages, session.date)) {
        for (const i of m.messageIndices) {
          const turn = session.turns[i];
          if (!turn) continue;
          const key = `${sample.sample_id}/${turn.dia_id}`;
          covered.add(key);
          let ws = turnWords.get(key);
          if (!ws) turnWords.set(key, (ws = new Set()));
          for (const w of words(m.content)) ws.add(w);
        }
      }
    }
  }
  const { questions } = locomoQuestions(samples, sessionsBySample);
  const groups: Record<string, number[]> = { overall: [] };
  const answers: Share = { hit: 0, n: 0 };
  const answerOf = new Map<string, unknown>();
  for (const s of samples) for (const qa of s.qa) answerOf.set(`${s.sample_id}/${qa.question}`, qa.answer);
  for (const q of questions) {
    const frac = q.evidence.filter((e) => covered.has(`${q.sample}/${e}`)).length / q.evidence.length;
    groups.overall.push(frac);
    (groups[`${q.category} ${CATEGORY_NAMES[q.category] ?? ''}`.trim()] ??= []).push(frac);
    // answer words kept: the memories citing the evidence turns hold every content word of a short answer
    const raw = answerOf.get(`${q.sample}/${q.question}`);
    const answer = typeof raw === 'string' || typeof raw === 'number' ? contentWords(String(raw)) : [];
    if (q.category === 5 || answer.length === 0 || answer.length > 6) continue;
    const hay = new Set(q.evidence.flatMap((e) => [...(turnWords.get(`${q.sample}/${e}`) ?? [])]));
    bump(answers, allIn(answer, hay));
  }
  const mean = (xs: number[]) => (100 * xs.reduce((s, x) => s + x, 0)) / Math.max(1, xs.length);
  return {
    questions: questions.length,
    evidence_covered_pct: Object.fromEntries(Object.entries(groups).map(([k, v]) => [k, mean(v)])),
    short_answers: answers.n,
    short_answers_kept_pct: share(answers),
    messages: timer.messages,
    memories: timer.memories,
    memories_per_message: timer.memories / Math.max(1, timer.messages),
    ms_per_1000_messages: (1000 * timer.ms) / Math.max(1, timer.messages),
  };
}

// ---------------------------------------------------------------------------------------------------------

function main() {
  const flags = parseFlags(process.argv.slice(2));
  const lme = evalLme(flags);
  const locomo = evalLocomo(flags);
  const f1 = (x: number) => x.toFixed(1);
  if (lme) {
    console.log(`LongMemEval dev (${lme.files} questions, ${lme.messages} messages, ${lme.user_messages} user)`);
    console.log(`  evidence user turns covered: ${f1(lme.evidence_user_turns_covered_pct)} % of ${lme.evidence_user_turns} (confident memories only: ${f1(lme.evidence_user_turns_covered_confident_pct)} %)`);
    for (const [k, v] of Object.entries(lme.by_type)) console.log(`    ${k.padEnd(26)} ${f1(v.covered_pct).padStart(5)} % of ${v.n}`);
    console.log(`  short answers kept: ${f1(lme.short_answers_kept_pct)} % of ${lme.short_answers} (in the evidence user turns: ${f1(lme.short_answers_in_user_turns_pct)} %)`);
    console.log(`  memories per message: ${lme.memories_per_message.toFixed(3)} (per user message ${lme.memories_per_user_message.toFixed(3)}; confident ${f1(lme.confident_share_pct)} %)`);
    console.log(`  extraction: ${f1(lme.ms_per_1000_messages)} ms per 1,000 messages`);
    for (const m of lme.missed) console.log(`  missed: ${m}`);
    for (const m of lme.missedAnswers) console.log(`  missed answer: ${m}`);
  }
  if (locomo) {
    console.log(`LoCoMo (${locomo.questions} questions, ${locomo.messages} messages)`);
    for (const [k, v] of Object.entries(locomo.evidence_covered_pct)) console.log(`  evidence covered ${k.padEnd(16)} ${f1(v)} %`);
    console.log(`  short answers kept (all content words in the memories citing the evidence): ${f1(locomo.short_answers_kept_pct)} % of ${locomo.short_answers}`);
    console.log(`  memories per message: ${locomo.memories_per_message.toFixed(3)}; extraction: ${f1(locomo.ms_per_1000_messages)} ms per 1,000 messages`);
  }
  if (flags.json) writeFileSync(flags.json, JSON.stringify({ lme: lme && { ...lme, missed: undefined, missedAnswers: undefined }, locomo }, null, 2));
}

main();
