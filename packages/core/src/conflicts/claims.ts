/**
 * Which memories are claims about a single-valued subject, so that two of them can contradict each other.
 * Works on the third-person statements the extractors write ("The user lives in Lisbon."). A statement
 * that matches no rule is not a claim and never conflicts (it can still be a near-duplicate).
 *
 * Subjects recognised (docs/conflicts.md): residence, diet, employer, marital_status, age, name, hometown.
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

interface Rule {
  subject: ClaimSubject;
  pattern: RegExp;
  value: (m: RegExpMatchArray) => string;
}

const RULES: Rule[] = [
  {
    subject: 'residence',
    pattern: new RegExp(`^The user (?:now |currently |still )?(?:lives|is living|resides|has moved|moved|is based) (?:in|to) ${PLACE}(?: now| these days)?$`, 'u'),
    value: (m) => m[1],
  },
  { subject: 'diet', pattern: /^The user is (?:a |an )?(vegetarian|vegan|pescatarian|carnivore)$/i, value: (m) => m[1].toLowerCase() },
  { subject: 'diet', pattern: /^The user (?:eats|loves eating|enjoys eating) (meat)$/i, value: () => 'meat eater' },
  {
    subject: 'employer',
    pattern: new RegExp(`^The user (?:works|is working|is employed) (?:at|for) ${PLACE}$`, 'u'),
    value: (m) => m[1],
  },
  { subject: 'marital_status', pattern: /^The user is (married|single|divorced|engaged|widowed)$/i, value: (m) => m[1].toLowerCase() },
  { subject: 'age', pattern: /^The user is (\d{1,3}) years old$/i, value: (m) => m[1] },
  { subject: 'name', pattern: new RegExp(`^The user's name is ${PLACE}$`, 'u'), value: (m) => m[1] },
  { subject: 'hometown', pattern: new RegExp(`^The user (?:is|comes) (?:originally )?from ${PLACE}$`, 'u'), value: (m) => m[1] },
];

export function detectClaim(content: string): Claim | null {
  // Rules match the statement without its final period, so a place never swallows it.
  const text = content.trim().replace(/\.$/, '');
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
