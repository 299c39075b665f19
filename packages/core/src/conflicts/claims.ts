/**
 * Which memories are claims about a single-valued subject, so that two of them can contradict each other.
 * Works on the third-person statements the extractors write ("The user lives in Lisbon."). A statement
 * that matches no rule is not a claim and never conflicts (it can still be a near-duplicate).
 *
 * Subjects recognised (docs/conflicts.md): residence, diet, employer, marital_status, age, name, hometown.
 * Statements are compared without the asides the extractors append ("(as of 21 May 2023)", "(in reply to …)"),
 * and a move keeps its time ("The user just moved to Porto in April 2023.", "In 2021, the user moved to Porto.").
 * Limits: English only; negated statements ("does not live in …") are not claims; a claim must name its
 * value in the statement itself; synonyms of values are not merged ("NYC" vs "New York").
 */

export interface Claim {
  subject: ClaimSubject;
  /** Normalised value used for comparison. */
  value: string;
  /** The value as written, for questions. */
  display: string;
}

export type ClaimSubject = 'residence' | 'diet' | 'employer' | 'marital_status' | 'age' | 'name' | 'hometown';

const PLACE = "([A-Z\\u00C0-\\u024F][\\p{L}'.-]*(?:[ -][A-Z\\u00C0-\\u024F][\\p{L}'.-]*){0,3})";
/** Adverbs an extractor keeps between the subject and the verb ("The user just moved to Porto"). */
const ADVERBS = '(?:(?:now|currently|still|just|recently|finally|actually|officially|already) )*';
/**
 * When a move happened, as the extractors write it after the place: "in April 2023", "on 3 May 2023",
 * "in 2021", "the week before 8 May 2023", "a few days before 8 May 2023", "around 24 April 2023".
 */
const WHEN =
  '(?: (?:on|in|around|since|by)(?: [A-Z][a-z]+,)? (?:\\d{1,2} )?(?:[A-Z][a-z]+ )?\\d{4}| (?:the (?:week|weekend)|a few days) (?:before|of|after) \\d{1,2} [A-Z][a-z]+ \\d{4}| recently| last (?:week|month|year))?';
/** A time phrase the built-in extractor puts in front: "In April 2023, the user moved to Porto." */
const LEADING_WHEN = /^(?:on|in|around|the (?:week|weekend) (?:before|of|after)|a few days before)\b[^,]{2,40}, the user\b/i;
/** Asides an extractor appends that do not change the claim: "(as of 21 May 2023)", "(in reply to …)". */
const ASIDE = /\s+\((?:as of|in reply to)\b[\s\S]*$/;

interface Rule {
  subject: ClaimSubject;
  pattern: RegExp;
  value: (m: RegExpMatchArray) => string;
}

const RULES: Rule[] = [
  {
    subject: 'residence',
    pattern: new RegExp(`^The user ${ADVERBS}(?:lives|is living|resides|has moved|moved|is based|relocated|has relocated) (?:in|to) ${PLACE}(?: now| these days)?${WHEN}$`, 'u'),
    value: (m) => m[1],
  },
  { subject: 'diet', pattern: /^The user is (?:a |an )?(vegetarian|vegan|pescatarian|carnivore)$/i, value: (m) => m[1].toLowerCase() },
  { subject: 'diet', pattern: /^The user (?:eats|loves eating|enjoys eating) (meat)$/i, value: () => 'meat eater' },
  {
    subject: 'employer',
    pattern: new RegExp(`^The user ${ADVERBS}(?:works|is working|is employed) (?:at|for) ${PLACE}$`, 'u'),
    value: (m) => m[1],
  },
  { subject: 'marital_status', pattern: /^The user is (married|single|divorced|engaged|widowed)$/i, value: (m) => m[1].toLowerCase() },
  { subject: 'age', pattern: /^The user is (\d{1,3}) years old$/i, value: (m) => m[1] },
  { subject: 'name', pattern: new RegExp(`^The user's name is ${PLACE}$`, 'u'), value: (m) => m[1] },
  { subject: 'hometown', pattern: new RegExp(`^The user (?:is|comes) (?:originally )?from ${PLACE}$`, 'u'), value: (m) => m[1] },
];

export function detectClaim(content: string): Claim | null {
  // Rules match the statement without its final period (so a place never swallows it), without the asides
  // an extractor appends, and with a leading time phrase moved out of the way.
  const text = content.trim().replace(/\.$/, '').replace(ASIDE, '').replace(/\.$/, '').replace(LEADING_WHEN, 'The user');
  for (const rule of RULES) {
    const m = text.match(rule.pattern);
    if (m) {
      const display = rule.value(m).trim();
      return { subject: rule.subject, value: display.toLowerCase(), display };
    }
  }
  return null;
}

/** A question the end user can answer, e.g. "Do you currently live in Lisbon or in Porto?" */
export function clarificationQuestion(subject: string, a: string, b: string): string {
  switch (subject) {
    case 'residence':
      return `Do you currently live in ${a} or in ${b}?`;
    case 'diet':
      return `Which describes your diet now: ${a} or ${b}?`;
    case 'employer':
      return `Do you currently work at ${a} or at ${b}?`;
    case 'marital_status':
      return `Are you currently ${a} or ${b}?`;
    case 'age':
      return `Are you ${a} or ${b} years old?`;
    case 'name':
      return `Is your name ${a} or ${b}?`;
    case 'hometown':
      return `Are you originally from ${a} or from ${b}?`;
    default:
      return `Which is correct: ${a} or ${b}?`;
  }
}
