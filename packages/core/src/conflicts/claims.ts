/**
 * Claims: what a memory states about one attribute of one person, so that a later statement can confirm,
 * contradict or end it. A claim is (person, slot, value, polarity) plus whether it was said with change
 * language; the person and slot together are the claim's `subject` (`residence`, `favourite:drink`,
 * `count:egg`, `mother/residence`). Works on the third-person statements the extractors write ("The user
 * lives in Lisbon.", "The user is not vegetarian anymore.", "The user's favourite drink is green tea.").
 * A statement that matches no rule is not a claim and never conflicts (it can still be a near-duplicate).
 *
 * The slot grammar, its change language and its limits are documented in docs/conflicts.md. English only;
 * values are compared as written after normalisation ("NYC" and "New York" differ); a memory carries at
 * most one claim (the first rule that matches).
 */
import { ASIDE, CHANGE, CORRECTED_TAIL, LEADING_WHEN, isMultiValued, normaliseSlot, normaliseValue } from './claim-words';
import { parsePredicate, possessiveClaim, splitPerson } from './claim-rules';
export { isMultiValued, normaliseSlot, normaliseValue } from './claim-words';

export interface Claim {
  /** Person and slot: `residence`, `favourite:drink`, `habit:smoke`, `mother/residence`. */
  subject: string;
  /** Normalised value used for comparison (`yes` for slots whose key already names the thing). */
  value: string;
  /** The value as written, for questions. */
  display: string;
  /** True for a negated or ended claim: "is not vegetarian anymore", "quit smoking", "used to live in Lisbon". */
  negated: boolean;
  /** Said with change language ("now", "moved to", "switched to", "actually", "no longer", …). */
  change: boolean;
}

/** How two claims relate: the same fact again, a contradiction, or compatible (different slots or a multi-valued slot). */
export type ClaimRelation = 'same' | 'contradiction' | 'compatible';

/** Where a statement's first clause ends: ", so …", ", but …", ", which …", " - …", "; …", "and he …" (a new subject). */
const CLAUSE_BREAK = /,? (?:so|but|which|because|since|while|although|though|where|and the user|and now|and (?:he|she|they|his|her|their))\b|, | [-–—] |; /;

export function detectClaim(content: string): Claim | null {
  // Rules match the statement without its final period, without the asides an extractor appends and markdown
  // emphasis, and with a leading time phrase moved out of the way.
  const text = content
    .trim()
    .replace(/\*\*|__/g, '')
    .replace(/\.$/, '')
    .replace(ASIDE, '')
    .replace(/\.$/, '')
    .replace(LEADING_WHEN, '')
    .replace(/^the user\b/, 'The user')
    // a correction names the value it replaces: "works at Initech, not Globex", "lives in Porto instead of Lisbon"
    .replace(CORRECTED_TAIL, '');
  const who = splitPerson(text);
  if (!who) return null;
  const parse = (predicate: string) => (who.possessive ? possessiveClaim(predicate) : parsePredicate(predicate));
  // An extractor's statement may run on past the claim ("moved back to the suburbs, so the user …"): the
  // first clause alone is tried when the whole does not parse.
  const clause = who.predicate.split(CLAUSE_BREAK)[0];
  const parsed =
    parse(who.predicate) ?? (clause !== who.predicate ? parse(clause) : null) ?? endedThenStarted(who.predicate, parse) ?? afterAndNow(who.predicate, parse);
  if (!parsed) return null;
  const display = (parsed.display ?? parsed.value).trim().replace(/[.,;:!?]+$/, '');
  const value = parsed.value === 'yes' ? 'yes' : normaliseValue(parsed.value);
  if (!value) return null;
  return {
    subject: who.person ? `${who.person}/${parsed.slot}` : parsed.slot,
    value,
    display,
    negated: parsed.negated ?? false,
    change: CHANGE.test(text) || CORRECTED_TAIL.test(content.trim().replace(/\.$/, '')),
  };
}

/**
 * "left Acme and joined Globex", "moved out of Lisbon and moved to Porto": an ending and a beginning of the same
 * slot joined by "and" state the new value (the claim, said as a change). Only that pair: "lives in Lisbon and
 * works at Acme" states two facts, and neither may stand for the memory (a later job would supersede the
 * residence with it).
 */
function endedThenStarted(predicate: string, parse: (p: string) => ReturnType<typeof parsePredicate>): ReturnType<typeof parsePredicate> {
  const at = predicate.indexOf(' and ');
  if (at < 0) return null;
  const ended = parse(predicate.slice(0, at));
  const started = parse(predicate.slice(at + 5));
  return ended?.negated && started && !started.negated && ended.slot === started.slot ? started : null;
}

/** "changed jobs and now works at Globex": what follows "and now" is the current value. */
function afterAndNow(predicate: string, parse: (p: string) => ReturnType<typeof parsePredicate>): ReturnType<typeof parsePredicate> {
  const m = predicate.match(/,? and (?:the user |they )?now (.+)$/);
  return m ? parse(m[1]) : null;
}

/** Two values name the same thing: equal, or one is the other with more words after it ("Porto" / "Porto, Portugal"). */
export function sameClaimValue(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return short.length >= 3 && (long.startsWith(`${short} `) || long.startsWith(`${short}, `));
}

/**
 * How an incoming claim relates to an existing one of the same person. Same slot and value with the same
 * polarity: the same fact. Same value, opposite polarity ("is vegetarian" / "is not vegetarian anymore"): a
 * contradiction. Different values: a contradiction for a single-valued slot when both are positive;
 * compatible for a multi-valued slot, or when one of them is a negation ("not vegetarian anymore" and "vegan").
 */
export function relateClaims(existing: Pick<Claim, 'subject' | 'value' | 'negated'>, incoming: Pick<Claim, 'subject' | 'value' | 'negated'>): ClaimRelation {
  if (existing.subject !== incoming.subject) return 'compatible';
  // a set of days is one value: "Tuesday" and "Tuesday Saturday" differ (the prefix rule is for names)
  const same = existing.subject.includes('schedule:') ? existing.value === incoming.value : sameClaimValue(existing.value, incoming.value);
  if (same) return existing.negated === incoming.negated ? 'same' : 'contradiction';
  if (existing.negated || incoming.negated) return 'compatible';
  return isMultiValued(existing.subject) ? 'compatible' : 'contradiction';
}

const QUESTIONS: Record<string, (a: string, b: string) => string> = {
  residence: (a, b) => `Do you currently live in ${a} or in ${b}?`,
  diet: (a, b) => `Which describes your diet now: ${a} or ${b}?`,
  employer: (a, b) => `Do you currently work at ${a} or at ${b}?`,
  job_title: (a, b) => `Is your job now ${a} or ${b}?`,
  marital_status: (a, b) => `Are you currently ${a} or ${b}?`,
  age: (a, b) => `Are you ${a} or ${b} years old?`,
  name: (a, b) => `Is your name ${a} or ${b}?`,
  hometown: (a, b) => `Are you originally from ${a} or from ${b}?`,
  school: (a, b) => `Do you currently study at ${a} or at ${b}?`,
  vehicle: (a, b) => `Do you currently drive ${a} or ${b}?`,
};

/** A question the end user can answer, e.g. "Do you currently live in Lisbon or in Porto?" */
export function clarificationQuestion(subject: string, a: string, b: string): string {
  const ask = QUESTIONS[subject];
  if (ask) return ask(a, b);
  const slot = subject.match(/^(favourite|preferred):(.+)$/);
  if (slot) return `Is your ${slot[1]} ${slot[2]} ${a} or ${b}?`;
  const count = subject.match(/^count:(.+)$/);
  if (count) return `How many ${count[1]}s do you have now: ${a} or ${b}?`;
  const day = subject.match(/^(?:[^/]+\/)?schedule:.+$/) && /(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b/i.test(`${a} ${b}`);
  if (day) return `Which day is it now: ${a} or ${b}?`;
  return `Which is correct now: ${a} or ${b}?`;
}

/**
 * The claim an extracted memory states: the provider's own when it gave one (its slot normalised, so LLM and
 * built-in memories use the same slots), else the built-in rules on the memory's text.
 */
export function claimOfMemory(m: { content: string; claim?: { subject: string; value: string; display?: string; negated?: boolean } }): Claim | null {
  if (!m.claim) return detectClaim(m.content);
  const fromText = detectClaim(m.content);
  return {
    subject: normaliseSlot(m.claim.subject),
    value: normaliseValue(m.claim.value) || m.claim.value.trim().toLowerCase(),
    display: m.claim.display ?? m.claim.value,
    negated: m.claim.negated ?? false,
    change: fromText?.change ?? CHANGE.test(m.content),
  };
}

/** The claim a stored memory holds (its `subject`, `claim_value` and `claim_negated` columns), or null. */
export function storedClaim(row: { subject: string | null; claimValue: string | null; claimNegated?: boolean | null }): Pick<Claim, 'subject' | 'value' | 'negated'> | null {
  if (!row.subject || row.claimValue === null) return null;
  return { subject: row.subject, value: row.claimValue, negated: row.claimNegated ?? false };
}

/** Words people use when they ask about a slot, for the slots whose statements may not contain them. */
const SLOT_WORDS: Record<string, string> = {
  residence: 'lives live home residence',
  hometown: 'from hometown origin',
  diet: 'diet eats food',
  employer: 'works job employer company',
  job_title: 'works job occupation profession',
  school: 'studies school',
  major: 'studies major subject',
  marital_status: 'relationship status single married partner',
  age: 'age old',
  name: 'name called',
  vehicle: 'car drives vehicle',
  phone: 'phone',
  laptop: 'laptop computer',
  salary: 'salary earns income',
  rent: 'rent pays',
  budget: 'budget',
  weight: 'weight weighs',
  height: 'height tall',
  grade: 'grade school year',
  birthday: 'birthday born',
};

/**
 * Index words for a claim's slot ("lives home" for `residence`, "favourite drink" for `favourite:drink`, "many
 * eggs" for `count:egg`), added to a memory's stored terms so a question about the slot finds the statement
 * that answers it in other words ("The user moved to Porto." for "where does the user live?").
 */
export function slotWords(claim: Pick<Claim, 'subject'> | null): string {
  if (!claim) return '';
  const slash = claim.subject.indexOf('/');
  const person = slash >= 0 ? claim.subject.slice(0, slash).replace(/_/g, ' ') : '';
  const slot = slash >= 0 ? claim.subject.slice(slash + 1) : claim.subject;
  const [family, thing = ''] = slot.split(':');
  const words =
    SLOT_WORDS[slot] ??
    {
      favourite: `favourite favorite ${thing}`,
      preferred: `preferred prefers ${thing}`,
      count: `many number ${thing}`,
      level: `level ${thing}`,
      schedule: `schedule day ${thing}`,
      need: `need needs many ${thing}`,
      progress: `page read reading`,
      habit: 'habit',
      likes: 'likes',
      speaks: 'speaks language',
    }[family] ??
    '';
  return `${person} ${words}`.trim();
}
