/**
 * The built-in, rule-based extraction provider: fast (well under 1 ms for a short conversation),
 * deterministic, no external services; noun phrases come from compromise (entities.ts), everything else is rules.
 *
 * Pipeline: user messages → sentences (. ! ? newlines) → clauses (", and I", " and I ", "; ",
 * " but I ", comma splices that start a new first-person or "we" subject, a question's statement part,
 * a leading "As a nurse," role) → a count's left-out noun restored from earlier in the message ("I've knitted
 * three so far" after "scarves": ellipsis.ts) → openers set aside (fillers, topics, scenes: disclosures.ts) → pronouns
 * resolved (pronouns.ts) → skip filters → present time anchored (now.ts) → third-person rewrite
 * ("I'm a vegetarian" → "The user is a vegetarian.") → category, importance, confidence. A skipped
 * question or request still gives what it states on the side (disclosures.ts), and a short fragment
 * answering the assistant's question about the user is kept with that question (answers.ts).
 * The rules and their causes: docs/memory-model.md, "The built-in extractor".
 *
 * The steps live beside this file: clauses.ts (sentences and clauses), normalise.ts, clause-analysis.ts (one
 * clause → a memory or a skip reason) and classify.ts (the category and importance rules).
 *
 * Skip reasons (metadata.skipped): assistant_turn, system_turn, redacted_secret, small_talk, question,
 * too_short, no_self_reference, transient, addressed_to_assistant, reaction (a named speaker's reaction to the
 * other speaker: reactions.ts).
 */
import { resolveRelativeDates } from './dates';
import { answerMemory, isShortAnswer, questionAboutUser } from './answers';
import { embeddedStatements, plainRequest, questionSpeaksOfUser } from './disclosures';
import { nounPhrases } from './entities';
import { carriesInstruction, isInstruction, overridesInstructions } from './instructions';
import { POINTS_BACK, REDACTED } from './lexicon';
import { type Antecedent, mentions, resolvePronoun, weSubject } from './pronouns';
import { restoreCountedNoun } from './ellipsis';
import { rewriteLater } from './third-person';
import { COMPOSITIONAL_NOT_RUN, type ExtractedMemory, type ExtractionInput, type ExtractionProvider, type ExtractionResult } from './types';
import { type ClauseOptions, type ClauseOutcome, DEFAULT_VOICE, type Voice, analyseClause } from './clause-analysis';
import { type Clause, splitClauses, splitSentences } from './clauses';
import { colonHalves, compoundCandidates, compoundReading, joinPredicates, opensVerbPhrase, singleValueClaim } from './compound-claims';
import { isSmallTalk, stripFillers } from './normalise';
import { responsePreference } from './response-preferences';

/** The skips a request to the assistant gets (a clause with a secret, a reaction or small talk is never one). */
const REQUEST_SKIPS = new Set(['question', 'addressed_to_assistant', 'no_self_reference', 'too_short']);

/** A shared photo's caption inside a message: "[shares a photo: a dog on a couch]", "[image: …]", "[photo: …]". */
const CAPTION = /\[(?:shares? (?:a |an )?(?:photo|picture|image|pic)|photo|image|picture|pic)\s*:\s*([^\]]+)\]/gi;
const CAPTION_LEAD = /^(?:a |an )?(?:photo|photograph|photography|picture|image|pic|snapshot|screenshot)(?: of)?\s+/i;

export function splitCaptions(content: string): { text: string; captions: string[] } {
  const captions: string[] = [];
  const text = content.replace(CAPTION, (_m, caption: string) => {
    const c = caption.trim();
    if (c) captions.push(c);
    return ' ';
  });
  return { text: text.replace(/\s+/g, ' ').trim(), captions };
}

function captionMemory(caption: string, voice: Voice): string {
  const what = caption.replace(CAPTION_LEAD, '').replace(/[\s.]+$/, '');
  return `${voice.subject} shared a photo of ${what}.`;
}

/**
 * What a reply is about, from the message it answers (the previous message, when another speaker or the
 * assistant wrote it): that message's questions and its noun phrases. A memory that refers back ("I painted
 * this …") carries it, and so does, between named speakers, every answer to a question, so a memory can be
 * found and read on its own:
 * "Caroline painted this after Caroline visited a LGBTQ center (in reply to Melanie: "What inspired it?";
 * about a great painting, the art show)."
 */
interface ReplyContext {
  who: string;
  questions: string[];
  about: string[];
  /** What the replier said just before a follow-up question or a bare reaction, quoted, and its message (topicBefore). */
  before: { quote: string; index: number } | null;
}

function replyContext(messages: ExtractionInput['messages'], index: number): ReplyContext | null {
  const prev = messages[index - 1];
  const me = messages[index];
  if (!prev || typeof prev.content !== 'string') return null;
  const other = me.name ? prev.name !== undefined && prev.name !== me.name : prev.role === 'assistant';
  if (!other) return null;
  const text = splitCaptions(prev.content).text;
  const { sentences, whole } = quotable(text);
  const questions = sentences
    .filter((x) => x.question && x.text.length <= 160)
    .map((x) => stripFillers(x.text).text)
    .filter((q) => q.split(/\s+/).length >= 2)
    .slice(-2);
  // the noun phrases of what may be quoted: the whole message unless a sentence of it may not be
  const about = nounPhrases(whole ? text : sentences.map((x) => x.text).join(' '), me.name ? [me.name] : []).slice(0, 5);
  const last = questions.at(-1);
  const followUp = last !== undefined && (about.length <= 1 || pointsBack(last));
  // between people, a bare reaction ("Wow, that must have been stunning!") hands the topic back as a follow-up does
  const reaction = last === undefined && me.name !== undefined && about.length <= 1;
  const before = followUp || reaction ? topicBefore(messages, index) : null;
  if (questions.length === 0 && about.length === 0 && !before) return null;
  return { who: prev.name ?? 'the assistant', questions, about, before };
}

/** A question that points at something said before it: "How did they like it?", "Did you do anything else there?" */
const pointsBack = (question: string) => POINTS_BACK.test(question) || /\b(?:there|you two)\b/i.test(question);

/**
 * What a follow-up question is about, when it names next to nothing of its own or points back: the statements the
 * replier made just before it, the last two (or the last one) when they fit in 240 characters. The reply quotes
 * them and cites their message ("Yesterday I took my nephews to the aquarium." → "So fun! What did they like
 * best?" → "They loved the octopus" is about the nephews at the aquarium). Between named speakers a bare reaction
 * (no question, at most one noun phrase: "Wow, that must have been stunning!") is the same to a reply that refers
 * back ("It was one of those moments …"). Only the replier's own message right before the question or reaction counts.
 */
function topicBefore(messages: ExtractionInput['messages'], index: number): { quote: string; index: number } | null {
  const before = messages[index - 2];
  const me = messages[index];
  if (!before || before.role !== me.role || before.name !== me.name || typeof before.content !== 'string') return null;
  const statements = quotable(splitCaptions(before.content).text)
    .sentences.filter((x) => !x.question)
    .map((x) => x.text.trim());
  const two = statements.slice(-2).join(' ');
  const quote = two.length <= 240 ? two : (statements.at(-1) ?? '');
  return quote.split(/\s+/).length >= 3 && quote.length <= 240 ? { quote, index: index - 2 } : null;
}

/**
 * The sentences of another message a memory may quote: none of a message that carries an attempt on the
 * assistant's instructions (it is not kept as a passage either), and no sentence aimed at the model or that held
 * a redacted secret (such sentences never become memories of their own).
 */
function quotable(text: string): { sentences: ReturnType<typeof splitSentences>; whole: boolean } {
  if (carriesInstruction(text)) return { sentences: [], whole: false };
  const all = splitSentences(text);
  const sentences = all.filter((x) => !REDACTED.test(x.text) && !isInstruction(x.text));
  return { sentences, whole: sentences.length === all.length };
}

/** How a memory opens the question it quotes: `in reply to Melanie: "…"` (retrieval reads it: hot-tier.ts). */
export const quotedQuestionOf = (who: string) => `in reply to ${who}: `;

function withContext(content: string, ctx: ReplyContext): string {
  const parts: string[] = [];
  if (ctx.questions.length) parts.push(`${quotedQuestionOf(ctx.who)}${ctx.questions.map((q) => `"${q}"`).join(' ')}`);
  const about = ctx.about.length ? `about ${ctx.about.join(', ')}` : '';
  if (!ctx.questions.length) parts.push(about ? `in reply to ${ctx.who} ${about}` : `in reply to ${ctx.who}`);
  if (ctx.before) parts.push(`after saying "${ctx.before.quote}"`);
  if (ctx.questions.length && about) parts.push(about);
  return `${content.replace(/[.!?]+$/, '')} (${parts.join('; ')}).`;
}

/** The other speaker nearest to message `index` (the previous one, else the next), for "you". */
function addresseeOf(messages: ExtractionInput['messages'], index: number): string | null {
  const me = messages[index].name;
  for (let i = index - 1; i >= 0; i--) if (messages[i].name && messages[i].name !== me) return messages[i].name ?? null;
  for (let i = index + 1; i < messages.length; i++) if (messages[i].name && messages[i].name !== me) return messages[i].name ?? null;
  return null;
}

/** A question or request that speaks of the user's own things: "The user asked: how often should the user water …?" */
function askedMemory(question: string): Omit<ExtractedMemory, 'messageIndices'> {
  const q = rewriteLater(plainRequest(stripFillers(question).text), false).replace(/\s+/g, ' ').trim();
  const body = q.replace(/[\s.,;:!…]+$/, '');
  return {
    content: `The user asked: ${body.charAt(0).toLowerCase()}${body.slice(1)}${/[?"”’)]$/.test(body) ? '' : '?'}`,
    category: 'fact',
    importance: 0.4,
    confidence: 0.75,
  };
}

const YES_NO_ANSWER = /^(?:yes|yeah|yep|yup|no|nope|not really|not yet|never|sometimes|always|of course|definitely)\b/i;
const YES_NO_QUESTION = /^(?:do|does|did|are|is|have|has|were|was|can|could|will|would)\b/i;

/** A fragment that answers the assistant's question about the user (answers.ts), or null. */
function shortAnswer(messages: ExtractionInput['messages'], index: number): Omit<ExtractedMemory, 'messageIndices'> | null {
  const prev = messages[index - 1];
  const content = messages[index].content;
  if (prev?.role !== 'assistant' || typeof prev.content !== 'string' || typeof content !== 'string' || !isShortAnswer(content)) return null;
  const question = questionAboutUser(
    prev.content,
    splitSentences(prev.content)
      .filter((x) => x.question)
      .map((x) => stripFillers(x.text).text),
    messages[index - 2]?.role === 'user',
  );
  if (!question) return null;
  if (isSmallTalk(content) && !(YES_NO_ANSWER.test(content.trim()) && YES_NO_QUESTION.test(question))) return null;
  return { content: answerMemory(question, content), category: 'fact', importance: 0.5, confidence: 0.8 };
}

type MemoryOutcome = Extract<ClauseOutcome, { kind: 'memory' }> & { claim?: ExtractedMemory['claim'] };

/** Two facts said with one subject, the first a claim (compound-claims.ts): the two memories, else null. */
function claimHalves(clause: Clause, voice: Voice, opts: ClauseOptions, when: Date): MemoryOutcome[] | null {
  for (const [left, right, restAt] of compoundCandidates(clause.text)) {
    // the second half is read only when the first is a claim of a single value (most are not)
    const a = analyseClause({ text: left, question: false }, voice, opts);
    const claim = a.kind === 'memory' ? singleValueClaim(resolveRelativeDates(a.content, when)) : null;
    if (a.kind !== 'memory' || !claim) continue;
    const b = analyseClause({ text: right, question: false }, voice, opts);
    if (b.kind !== 'memory') continue;
    const reading = compoundReading(claim, resolveRelativeDates(b.content, when), () => opensVerbPhrase(clause.text, restAt));
    if (reading === 'two') return [a, b];
    if (reading === 'one') {
      return [{ ...a, content: joinPredicates(a.content, b.content), refersBack: a.refersBack || b.refersBack, claim: { subject: claim.subject, value: claim.value, display: claim.display, negated: claim.negated } }];
    }
  }
  return null;
}

/** "I switched jobs: I'm a school nurse now": a claim after a colon is a memory of its own (compound-claims.ts). */
function colonClaim(clause: Clause, voice: Voice, opts: ClauseOptions, when: Date): MemoryOutcome[] | null {
  const halves = colonHalves(clause.text);
  if (!halves) return null;
  const b = analyseClause({ text: halves[1], question: false }, voice, opts);
  if (b.kind !== 'memory' || !singleValueClaim(resolveRelativeDates(b.content, when))) return null;
  const a = analyseClause({ text: halves[0], question: false }, voice, opts);
  return a.kind === 'memory' ? [a, b] : [b];
}

export function extractMemories(input: ExtractionInput): ExtractionResult {
  const skipped: Record<string, number> = {};
  const bump = (reason: string) => {
    skipped[reason] = (skipped[reason] ?? 0) + 1;
  };
  const byContent = new Map<string, ExtractedMemory>();
  let sentencesConsidered = 0;
  // `also`: other messages the memory was taken from (the question it quotes, between named people)
  const keep = (index: number, m: Omit<ExtractedMemory, 'messageIndices'>, also: readonly number[] = []) => {
    const content = resolveRelativeDates(m.content, input.observedAt);
    const key = content.toLowerCase();
    const existing = byContent.get(key);
    if (existing) {
      for (const i of [...also, index]) if (!existing.messageIndices.includes(i)) existing.messageIndices.push(i);
      existing.messageIndices.sort((a, b) => a - b);
      existing.importance = Math.max(existing.importance, m.importance);
      existing.confidence = Math.max(existing.confidence, m.confidence);
      return;
    }
    byContent.set(key, { ...m, content, messageIndices: [...new Set([...also, index])].sort((a, b) => a - b) });
  };

  const clauseOptions: ClauseOptions = { supportReports: input.domain === 'customer_support' };
  // people and pets the user has mentioned, for "she/he/they/we" (pronouns.ts); the window counts user messages
  const antecedents: Antecedent[] = [];
  const userOrdinal: number[] = [];
  let users = 0;
  for (const m of input.messages) userOrdinal.push(m.role === 'user' ? users++ : users);
  const ordinal = (i: number) => userOrdinal[i] ?? 0;

  input.messages.forEach((message, index) => {
    if (message.role !== 'user') {
      bump(message.role === 'assistant' ? 'assistant_turn' : 'system_turn');
      return;
    }
    if (typeof message.content !== 'string' || !message.content.trim()) return;
    const name = message.name?.trim();
    const voice: Voice = name ? { subject: name, addressee: addresseeOf(input.messages, index), named: true } : DEFAULT_VOICE;
    const opts: ClauseOptions = voice.named
      ? clauseOptions
      : {
          ...clauseOptions,
          resolvePronoun: (t) => resolvePronoun(t, antecedents, index, ordinal),
          we: (t) => weSubject(t, antecedents, index),
        };
    const { text, captions } = splitCaptions(message.content);
    // a message that tries to replace the assistant's instructions is skipped whole (instructions.ts)
    const override = overridesInstructions(text);
    let context: ReplyContext | null | undefined;
    let kept = 0;
    const keepOutcome = (outcome: MemoryOutcome) => {
      const { refersBack, kind: _kind, ...memory } = outcome;
      if (context === undefined && (refersBack || voice.named)) context = replyContext(input.messages, index);
      // between people every answer keeps its question; to an assistant, only a statement that refers back
      const needs = context != null && (refersBack || (voice.named && context.questions.length > 0));
      // between people, an answer that quotes the question cites the question's message too: it was taken from both
      const cites = needs && voice.named && context?.questions.length ? [index - 1] : [];
      if (needs && context?.before) cites.push(context.before.index);
      keep(index, { ...memory, content: needs && context ? withContext(memory.content, context) : memory.content }, cites);
      kept++;
    };
    // what the message said before the clause: a count that leaves out what it counts takes it from there
    let earlier = '';
    for (const sentence of splitSentences(text)) {
      sentencesConsidered++;
      if (override || isInstruction(sentence.text)) {
        bump('instruction');
        continue;
      }
      for (const split of splitClauses(sentence)) {
        const clause = { ...split, text: restoreCountedNoun(split.text, earlier) };
        earlier += `${split.text} `;
        const outcome = analyseClause(clause, voice, opts);
        if (!voice.named) antecedents.push(...mentions(clause.text, index));
        if (outcome.kind === 'memory') {
          const parts = claimHalves(clause, voice, opts, input.observedAt) ?? colonClaim(clause, voice, opts, input.observedAt);
          for (const part of parts ?? [outcome]) keepOutcome(part);
          continue;
        }
        // a standing request about the assistant's answers ("From now on, answer in French": response-preferences.ts)
        const preference = !voice.named && REQUEST_SKIPS.has(outcome.reason) ? responsePreference(clause.text) : null;
        if (preference) {
          keep(index, { content: preference, category: 'preference', importance: 0.7, confidence: 0.9 });
          kept++;
          continue;
        }
        bump(outcome.reason);
        // "I'm wondering if you have tips …, since I've been …" is read as a passing state; it is a request too
        const request = outcome.reason === 'transient' && plainRequest(clause.text) !== clause.text;
        if (outcome.reason !== 'question' && outcome.reason !== 'no_self_reference' && !request) continue;
        // a question or request that states something on the side (disclosures.ts)
        let side = 0;
        for (const statement of embeddedStatements(clause.text)) {
          const o = analyseClause({ text: statement, question: false }, voice, opts);
          if (o.kind === 'memory') {
            keepOutcome(o);
            side++;
          }
        }
        if (side === 0 && outcome.reason === 'question' && !voice.named && questionSpeaksOfUser(clause.text)) {
          keep(index, askedMemory(clause.text));
          kept++;
        }
      }
    }
    for (const caption of override ? [] : captions) {
      keep(index, { content: captionMemory(caption, voice), category: 'event', importance: 0.4, confidence: 0.9 });
      kept++;
    }
    if (kept === 0 && !voice.named && !override) {
      const answer = shortAnswer(input.messages, index);
      if (answer) keep(index, answer);
    }
  });

  return {
    memories: [...byContent.values()],
    metadata: {
      provider: 'builtin',
      sentences_considered: sentencesConsidered,
      skipped,
      ...COMPOSITIONAL_NOT_RUN,
    },
  };
}

export class BuiltinExtractor implements ExtractionProvider {
  readonly name = 'builtin';

  async extract(input: ExtractionInput): Promise<ExtractionResult> {
    return extractMemories(input);
  }
}
