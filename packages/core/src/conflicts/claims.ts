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
import { analyze } from '../text/terms';

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

// ---------------------------------------------------------------------------------------------
// Building blocks
// ---------------------------------------------------------------------------------------------

/** A capitalised name of a place or organisation, up to four words ("Porto", "New York", "St. Mary's Hospital"). */
const NAME = "([A-Z\\u00C0-\\u024F0-9][\\p{L}\\p{N}'.&-]*(?:(?: |-| of | de | and | & )[A-Z\\u00C0-\\u024F0-9][\\p{L}\\p{N}'.&-]*){0,4})";
/** Adverbs an extractor keeps between the subject and the verb ("The user just moved to Porto"). */
const ADVERB =
  /^(?:now|currently|still|just|recently|finally|actually|officially|already|also|really|then|lately|newly|happily|permanently|mostly) /;
/**
 * When something happened, as the extractors write it after the value: "in April 2023", "on 3 May 2023",
 * "in 2021", "the week before 8 May 2023", "recently", "last month", "now", "these days".
 */
const WHEN =
  '(?: (?:on|in|around|since|by|as of)(?: [A-Z][a-z]+,)? (?:\\d{1,2} )?(?:[A-Z][a-z]+ )?\\d{4}| (?:the (?:week|weekend)|a few days) (?:before|of|after) \\d{1,2} [A-Z][a-z]+ \\d{4}| recently| last (?:week|month|year)| this (?:week|month|year)| now| these days| nowadays| again| full[- ]time| for good)*';
/** A time phrase the built-in extractor puts in front: "In April 2023, the user moved to Porto." */
const LEADING_WHEN = /^(?:on|in|around|since|as of|the (?:week|weekend) (?:before|of|after)|a few days before|recently|lately|these days|nowadays|now|actually)\b[^,]{0,40}, (?=the user\b)/i;
/** Asides an extractor appends that do not change the claim: "(as of 21 May 2023)", "(in reply to …)". */
const ASIDE = /\s+\((?:as of|in reply to|about)\b[^)]*\)?\s*$/;
/** The value a correction replaces, after the new one: ", not Globex", " instead of Lisbon", " rather than tea". */
const CORRECTED_TAIL = /(?:,? (?:and )?not (?:in |at |a |an )?[A-Z0-9][^,]*|,? (?:instead of|rather than) [^,]+|,? instead)$/;
/** Words that say a value changed or ended. */
const CHANGE =
  /\b(?:now|these days|nowadays|anymore|any more|any longer|no longer|used to|actually|switched|switching|moved|relocated|quit|stopped|gave up|given up|started|new|became|become|changed|turned|broke up|split up|joined|left|got (?:married|engaged|divorced|promoted)|was promoted|instead)\b/i;

const NUMBER_WORDS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11,
  twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90, hundred: 100,
};
const NUM = `(\\d[\\d,.]*|${Object.keys(NUMBER_WORDS).filter((w) => w.length > 2).join('|')})`;

/** A day of the week, or two ("Thursdays", "Tuesday and Thursday"), with an optional part of the day and "now". */
const WEEKDAY = '((?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days?(?:(?:,| and|,? or) (?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days?)*)(?: (?:mornings?|afternoons?|evenings?|nights?))?(?: now| these days| nowadays| again| instead| from now on)?';
/** Something that recurs on a day of the week: "cocktail-making class", "piano lessons", "soccer practice". */
const RECURRING = '(class|classes|lesson|lessons|practice|training|rehearsal|rehearsals|club|league games?|sessions?)';
/** Places people live in that are not names: "moved back to the suburbs". */
const PLACE_NOUN = '(?:the )?(suburbs|countryside|city|city centre|city center|coast|mountains|country|outskirts of [A-Z][\\p{L}]+|downtown)';

/** A weekday value as compared: lower case, singular, in week order ("Thursdays and Tuesdays" → "tuesday thursday"). */
function weekdays(v: string): string {
  const order = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
  const days = [...v.toLowerCase().matchAll(/(mon|tues|wednes|thurs|fri|satur|sun)day/g)].map((d) => `${d[1]}day`);
  return [...new Set(days)].sort((a, b) => order.indexOf(a.slice(0, 3)) - order.indexOf(b.slice(0, 3))).join(' ');
}

/** People a statement can be about besides the user ("The user's mother lives in Boston"). */
const KIN =
  /^(mother|mom|mum|father|dad|parents|sister|brother|wife|husband|partner|girlfriend|boyfriend|fianc[ée]e?|son|daughter|kids?|children|friend|best friend|boss|manager|roommate|flatmate|grandmother|grandfather|grandma|grandpa|aunt|uncle|cousin|niece|nephew|colleague|coworker|co-worker|neighbou?r|dog|cat|baby|team|family)(?: ([A-Z][\p{L}'-]+))?\b/u;

/** Attributes said as "The user's <attribute> is <value>", mapped to their slot. */
const ATTRIBUTE_SLOTS: [RegExp, string][] = [
  [/^(?:first |full |legal )?name$/, 'name'],
  [/^(?:job|job title|title|occupation|profession|role|position|line of work)$/, 'job_title'],
  [/^(?:employer|company|workplace|place of work)$/, 'employer'],
  [/^(?:home ?town|birthplace|place of birth)$/, 'hometown'],
  [/^(?:city|home city|home|address|location|place of residence|residence)$/, 'residence'],
  [/^age$/, 'age'],
  [/^(?:relationship|marital) status$/, 'marital_status'],
  [/^diet$/, 'diet'],
  [/^(?:school|university|college|alma mater)$/, 'school'],
  [/^(?:major|field of study|degree subject)$/, 'major'],
  [/^(?:birthday|date of birth|birth date)$/, 'birthday'],
  [/^(?:car|vehicle|ride)$/, 'vehicle'],
  [/^(?:phone|mobile phone|smartphone|cell phone)$/, 'phone'],
  [/^(?:laptop|computer)$/, 'laptop'],
  [/^(?:salary|income|pay)$/, 'salary'],
  [/^rent$/, 'rent'],
  [/^(?:monthly |weekly |annual )?budget$/, 'budget'],
  [/^weight$/, 'weight'],
  [/^height$/, 'height'],
  [/^(?:work |working )?(?:schedule|shift|hours)$/, 'schedule:work'],
  [/^bedtime$/, 'schedule:bed'],
  [/^(?:wake-up|wake up|waking) time$/, 'schedule:wake'],
  [/^(?:gym|workout|training) (?:schedule|days?|routine)$/, 'schedule:gym'],
  [/^(?:goal weight|target weight)$/, 'goal_weight'],
  [/^(?:commute|way to work)$/, 'commute'],
  [/^(?:religion|faith)$/, 'religion'],
  [/^(?:pronouns)$/, 'pronouns'],
  [/^(?:time ?zone)$/, 'timezone'],
  [/^(?:native language|first language|mother tongue)$/, 'native_language'],
];

/** Slots several values of which can hold at once: a different value is not a contradiction, only its negation is. */
const MULTI_VALUED = /^(?:likes|speaks|habit|hobby|hobbies|interest|interests|pet|pets|language|languages|skill|skills|allergy|allergies|friend|friends|child|children|plays|owns|uses)\b/;

const ARTICLE = /^(?:a|an|the|some|my|their|the user's|his|her) /i;

/** A value as compared: lower case, no article, no trailing punctuation, digits for small number words. */
export function normaliseValue(v: string): string {
  let s = v.trim().replace(/[.,;:!?]+$/, '').replace(ARTICLE, '').toLowerCase().replace(/\s+/g, ' ');
  s = s.replace(new RegExp(`^(${Object.keys(NUMBER_WORDS).join('|')})\\b`), (w) => String(NUMBER_WORDS[w]));
  s = s.replace(/(\d),(\d{3})\b/g, '$1$2');
  return s;
}

/** Content-word stems of a phrase, for slot keys ("favourite drinks" and "favorite drink" → `drink`). */
function keyOf(phrase: string): string {
  return analyze(phrase.replace(/\bfavorite\b/gi, 'favourite')).join(' ');
}

/**
 * The slot of an attribute as a person or a provider names it: "favorite drink" → `favourite:drink`,
 * "works at" → `employer`, "job title" → `job_title`. Used for the built-in rules and for the subjects LLM
 * providers return, so both write the same slots.
 */
export function normaliseSlot(name: string): string {
  const n = name.trim().toLowerCase().replace(/[_]+/g, ' ').replace(/\s+/g, ' ').replace(/\bfavorite\b/g, 'favourite');
  const person = n.match(/^(.+?)\s*\/\s*(.+)$/);
  if (person) return `${person[1].replace(/\s+/g, '_')}/${normaliseSlot(person[2])}`;
  if (/^[a-z_]+:[\p{L}\p{N} ]+$/u.test(n) && !n.includes(': ')) return n;
  const attr = n.replace(/^(?:current|new|present|all-time|absolute|own|usual|main|primary) /, '');
  for (const [re, slot] of ATTRIBUTE_SLOTS) if (re.test(attr)) return slot;
  if (/^(?:lives? in|residence|resides in|location|city of residence)$/.test(attr)) return 'residence';
  if (/^(?:works? (?:at|for)|is employed by|employed by)$/.test(attr)) return 'employer';
  if (/^(?:works? as|job)$/.test(attr)) return 'job_title';
  if (/^(?:marital status|relationship)$/.test(attr)) return 'marital_status';
  if (/^(?:drives|car)$/.test(attr)) return 'vehicle';
  const fav = attr.match(/^(favourite|preferred) (.+)$/);
  if (fav) return `${fav[1]}:${keyOf(fav[2])}`;
  const level = attr.match(/^(.+?) (?:level|grade|rank|belt)$/) ?? attr.match(/^(?:level|grade|rank|belt) (?:in|at|of) (.+)$/);
  if (level) return `level:${keyOf(level[1])}`;
  if (/^(?:level|grade|rank)$/.test(attr)) return 'level';
  const count = attr.match(/^(?:number of|count of|how many) (.+)$/);
  if (count) return `count:${keyOf(count[1])}`;
  return attr.replace(/\s+/g, '_');
}

export function isMultiValued(subject: string): boolean {
  return MULTI_VALUED.test(subject.replace(/^[^/]+\//, ''));
}

// ---------------------------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------------------------

interface Parsed {
  slot: string;
  value: string;
  display?: string;
  negated?: boolean;
}

/** The person a statement is about and what it says of them. */
function splitPerson(text: string): { person: string; predicate: string; possessive: boolean } | null {
  const user = text.match(/^The user(?: and (?:their|the user's) (?:household|family|partner|wife|husband|kids|children|team|roommates?|flatmates?))?(?: (?:both|together))? (.+)$/);
  if (user) {
    // "The user's girlfriend and the user broke up" is about the user
    return { person: '', predicate: user[1], possessive: false };
  }
  const own = text.match(/^The user's (.+)$/);
  if (own) {
    const kin = own[1].match(KIN);
    if (kin && own[1].length > kin[0].length) {
      const after = own[1].slice(kin[0].length).replace(/^,? /, '');
      // "the user's friend Rachel" is Rachel (the same person as "Rachel moved …"), not every friend
      const person = (kin[2] ?? kin[1]).toLowerCase().replace(/\s+/g, '_');
      if (/^and the user\b/.test(after)) return { person: '', predicate: after.replace(/^and the user /, ''), possessive: false };
      if (after.startsWith("'s ")) return { person, predicate: after.slice(3), possessive: true };
      return { person, predicate: after, possessive: false };
    }
    return { person: '', predicate: own[1], possessive: true };
  }
  const named = text.match(/^([A-Z][\p{L}-]+(?:'[A-Z][\p{L}-]+)?)('s)? (.+)$/u);
  if (named && !/^(?:The|A|An|In|On|At|This|That|It|There|They|He|She|We|I)$/.test(named[1])) {
    return { person: named[1].toLowerCase(), predicate: named[3], possessive: Boolean(named[2]) };
  }
  return null;
}

/** "The user's favourite drink is green tea": the attribute and its value. */
function possessiveClaim(predicate: string): Parsed | null {
  const m = predicate.match(/^(.+?) (?:is|are|has become|became|is now|are now|has changed to|changed to|was changed to|went up to|went down to|dropped to|rose to|increased to|decreased to) (.+)$/);
  if (!m) {
    const neg = predicate.match(/^(.+?) (?:is|are) (?:no longer|not) (.+?)(?: anymore| any more| any longer)?$/);
    if (!neg) return null;
    const slot = possessiveSlot(neg[1]);
    return slot ? { slot, value: neg[2], negated: true } : null;
  }
  const recurring = m[1].match(new RegExp(`^(.+? ${RECURRING})(?: with [A-Z][\\p{L}]+)?$`, 'u'));
  const day = m[2].match(new RegExp(`^(?:on |every )?${WEEKDAY}$`));
  if (recurring && day) return { slot: `schedule:${keyOf(recurring[1])}`, value: weekdays(day[1]), display: day[1] };
  const slot = possessiveSlot(m[1]);
  if (!slot) return null;
  return { slot, value: m[2].replace(/ (?:now|these days|nowadays|again|currently|at the moment)$/, '') };
}

function possessiveSlot(attribute: string): string | null {
  const attr = attribute.trim();
  if (attr.split(/\s+/).length > 5 || KIN.test(attr)) return null;
  const slot = normaliseSlot(attr);
  // only the attributes the grammar knows: "The user's plan is to …" names no single-valued slot
  if (/^(?:favourite|preferred|level|count):/.test(slot) || ['level'].includes(slot)) return slot;
  return ATTRIBUTE_SLOTS.some(([, s]) => s === slot) ? slot : null;
}

/** Ending and negation forms, rewritten to the positive predicate they negate. */
const NEGATIONS: [RegExp, (m: RegExpMatchArray) => string][] = [
  [/^(is|are) (?:no longer|not) (.+?)(?: anymore| any more| any longer)?$/, (m) => `${m[1]} ${m[2]}`],
  [/^(?:no longer|does not|do not|doesn't|don't|never) (.+?)(?: anymore| any more| any longer)?$/, (m) => m[1]],
  [/^(?:has |have )?(?:quit|stopped|given up|gave up|ceased|kicked|dropped) (.+)$/, (m) => m[1]],
  [/^used to (.+)$/, (m) => m[1]],
  [/^(?:hates|dislikes|can't stand|cannot stand|detests) (.+)$/, (m) => `likes ${m[1]}`],
];

const VERB_FORMS = '(?:lives|live|living|is living|resides|reside|has moved|moved|move|is based|relocated|relocate|has relocated|has settled|settled)';

const RULES: ((p: string) => Parsed | null)[] = [
  // residence: "lives in Porto", "moved to Porto in April 2023", "is based in Berlin now"
  (p) => {
    const m = p.match(new RegExp(`^${VERB_FORMS} (?:back )?(?:in|to) ${NAME}(?:, [A-Z][\\p{L}]+)?${WHEN}$`, 'u'));
    return m ? { slot: 'residence', value: m[1] } : null;
  },
  (p) => {
    const m = p.match(new RegExp(`^${VERB_FORMS} (?:back )?(?:in|to) ${PLACE_NOUN}${WHEN}$`, 'u'));
    return m ? { slot: 'residence', value: m[1] } : null;
  },
  (p) => {
    const m = p.match(new RegExp(`^(?:moved|has moved|moved away) (?:out of|away from) ${NAME}${WHEN}$`, 'u'));
    return m ? { slot: 'residence', value: m[1], negated: true } : null;
  },
  // hometown
  (p) => {
    const m = p.match(new RegExp(`^(?:is|are|comes|come) (?:originally )?from ${NAME}$`, 'u')) ?? p.match(new RegExp(`^grew up in ${NAME}$`, 'u'));
    return m ? { slot: 'hometown', value: m[1] } : null;
  },
  // diet
  (p) => {
    const m = p.match(/^(?:is|are|be|being|was|went|has gone|became) (?:a |an )?(?:strict |full-time |fully )?(vegetarian|vegan|pescatarian|carnivore|flexitarian|omnivore|raw vegan)(?:ian)?(?: again)?$/i);
    if (m) return { slot: 'diet', value: m[1] };
    const d = p.match(/^(?:is|are|be|went|has gone|started|follows|follow|is following|eats|eat) (?:on )?(?:a |an )?(keto|ketogenic|paleo|vegan|vegetarian|gluten-free|low-carb|mediterranean|plant-based|carnivore|pescatarian)(?: diet)$/i);
    if (d) return { slot: 'diet', value: d[1] };
    return /^(?:eats|eat|eating) meat\b/i.test(p) ? { slot: 'diet', value: 'meat eater' } : null;
  },
  // employer: "works at Acme", "joined Stripe", "started a new job as a data scientist at Stripe"
  (p) => {
    const m =
      p.match(new RegExp(`^(?:works|work|working|is working|is employed|has worked|has been working|interns|is interning) (?:at|for) ${NAME}${WHEN}$`, 'u')) ??
      p.match(new RegExp(`^(?:is employed by|joined|has joined|is joining|started (?:a new job|a job|a new position|a position|working|work|an internship)(?: as (?:a |an )?[\\w -]+?)? (?:at|with)|got (?:a |an )?(?:new )?(?:job|position|offer|internship)(?: as (?:a |an )?[\\w -]+?)? (?:at|with)|accepted (?:a |an )?(?:new )?(?:job|offer|position)(?: as (?:a |an )?[\\w -]+?)? (?:at|from|with)|landed (?:a |an )?(?:new )?job at) ${NAME}${WHEN}$`, 'u'));
    if (m) return { slot: 'employer', value: m[1] };
    const left = p.match(new RegExp(`^(?:left|quit|resigned from|was laid off from|got laid off from|was fired from)(?: (?:their|the user's|a|the|her|his) job (?:at|with))? ${NAME}${WHEN}$`, 'u'));
    return left ? { slot: 'employer', value: left[1], negated: true } : null;
  },
  // job title: "works as a pediatric nurse", "was promoted to senior engineer"
  (p) => {
    const m =
      p.match(/^(?:works|work|working|is working|is employed|started working|has started working|got a (?:new )?job|started a (?:new )?job) as (?:a |an )?([\w -]+?)(?: (?:at|for|in) .+)?$/) ??
      p.match(/^(?:got|was|has been) promoted to (?:a |an )?([\w -]+?)(?: (?:at|for|in) .+)?$/);
    return m ? { slot: 'job_title', value: m[1] } : null;
  },
  // school and major
  (p) => {
    const m =
      p.match(new RegExp(`^(?:studies|study|is studying|is a student|is enrolled|enrolled|attends|attend|is attending|started|transferred) (?:at|to|in)? ?${NAME}${WHEN}$`, 'u')) ??
      p.match(new RegExp(`^goes to (${NAME.slice(1, -1)} (?:University|College|School|Academy|Institute|High School)|(?:University|College) of [A-Z][\\p{L}]+(?: [A-Z][\\p{L}]+)?)${WHEN}$`, 'u'));
    if (m && /[A-Z]/.test(m[1][0])) return { slot: 'school', value: m[1] };
    const major = p.match(/^(?:is majoring|majors|is studying|studies|is doing a degree) (?:in )?([a-z][a-z -]+?)(?: at .+)?$/);
    return major ? { slot: 'major', value: major[1] } : null;
  },
  // relationship status
  (p) => {
    if (/\b(?:broke up|split up|separated)\b/.test(p)) return { slot: 'marital_status', value: 'single' };
    const m = p.match(/^(?:is|are|got|has gotten|became|is now|got recently) (married|single|divorced|engaged|widowed|separated)\b/);
    if (m) return { slot: 'marital_status', value: m[1] };
    if (/^(?:is|are) in (?:a |an )?(?:committed |serious |long-distance |new )?relationship\b/.test(p) || /^(?:is dating|has (?:a |an )?(?:new )?(?:girlfriend|boyfriend))\b/.test(p)) {
      return { slot: 'marital_status', value: 'in a relationship' };
    }
    return null;
  },
  // age
  (p) => {
    const m = p.match(/^(?:is|are) (\d{1,3}) (?:years old|years of age|yrs old)$/) ?? p.match(/^(?:just )?turned (\d{1,3})(?: years old)?(?: (?:on|in) .+)?$/);
    return m ? { slot: 'age', value: m[1] } : null;
  },
  // vehicle: "drives a Honda Civic"
  (p) => {
    const m = p.match(/^(?:drives|drive|is driving|driving|switched to driving|bought a new car, ) (?:a |an |the )?((?:[A-Z0-9][\w-]*)(?: [\w-]+){0,4})(?: now| these days| again)?$/);
    return m && !/^(?:to|home|back|around)\b/i.test(m[1]) ? { slot: 'vehicle', value: m[1] } : null;
  },
  // a current count: "has 3 cats", "have got 20 dozen eggs in the fridge"
  (p) => {
    const m = p.match(
      new RegExp(`^(?:has|have|owns|own|has got|have got|got|keeps|keep|is keeping|currently has|still has|now has|now have|is down to|are down to|is up to|are up to) (?:about |around |roughly |over |nearly |almost |exactly |only |just |a total of )?${NUM}( dozen| hundred| thousand)? ([\\p{L}][\\p{L}' -]*?)(?: (?:in|at|on|from|for|with|that|which|left|right|stored|at home|now|these days|total)\\b.*)?$`, 'iu'),
    );
    if (!m) return null;
    const head = keyOf(m[3]).split(' ').pop();
    if (!head || /^(?:year|month|week|day|hour|minut|time|way|thing)$/.test(head)) return null;
    return { slot: `count:${head}`, value: `${normaliseValue(m[1])}${m[2] ?? ''}`, display: `${m[1]}${m[2] ?? ''}` };
  },
  // amounts: rent, salary, weight, height, sleep
  (p) => {
    const rent = p.match(/^(?:pays|pay) (\S+)(?: (?:a|per) month| monthly)? (?:in|for) rent\b/);
    if (rent) return { slot: 'rent', value: rent[1] };
    const pay = p.match(/^(?:earns|earn|makes|make|is paid|gets paid) (\S+(?: (?:dollars|euros|pounds|k))?) (?:a|per|an) (year|month|hour|week)\b/);
    if (pay) return { slot: 'salary', value: `${pay[1]} per ${pay[2]}` };
    const weight = p.match(/^(?:weighs|weigh) (\d+(?:\.\d+)? ?(?:kg|kilos|kilograms|pounds|lbs?|stone))\b/);
    if (weight) return { slot: 'weight', value: weight[1] };
    const height = p.match(/^(?:is|are) (\d+(?:\.\d+)? ?(?:cm|m|meters|metres|feet|foot|ft|inches)(?: \d+(?: inches)?)?) tall\b/);
    if (height) return { slot: 'height', value: height[1] };
    const sleep = p.match(/^(?:sleeps|sleep|gets) (?:about |around )?(\d+(?:\.\d+)?) hours(?: of sleep)?(?: (?:a|per|each|every) night)?$/);
    return sleep ? { slot: 'schedule:sleep', value: sleep[1] } : null;
  },
  // levels and grades: "is at level 12 in Duolingo French", "is an intermediate Spanish speaker", "is in grade 7"
  (p) => {
    const lv =
      p.match(/^(?:is|are|plays|is playing) (?:at |on )?(?:level|rank|tier) (\w+)(?: (?:in|on|of|at) (.+))?$/) ??
      p.match(/^(?:reached|has reached|got to|hit|is now at|made it to) (?:level|rank|tier) (\w+)(?: (?:in|on|of|at) (.+))?$/);
    if (lv) return { slot: lv[2] ? `level:${keyOf(lv[2])}` : 'level', value: lv[1] };
    const named = p.match(/^(?:is|are) (?:a |an )?(beginner|intermediate|advanced|expert|novice|fluent|native|conversational|upper-intermediate|elementary|(?:A|B|C)[12]) (?:level )?(?:in |at )?(.+?)(?: speaker| player| learner| student)?$/);
    if (named) return { slot: `level:${keyOf(named[2])}`, value: named[1].toLowerCase() };
    const grade = p.match(/^(?:is|are) in (?:grade|year|form) (\w+)\b/) ?? p.match(/^(?:is|are) in (\w+) grade\b/);
    if (grade) return { slot: 'grade', value: grade[1] };
    const belt = p.match(/^(?:has|got|earned|is) (?:a |an )?(white|yellow|orange|green|blue|purple|brown|red|black)(?: belt)(?: in (.+))?$/);
    return belt ? { slot: `level:belt ${keyOf(belt[2] ?? '')}`.trim(), value: belt[1] } : null;
  },
  // schedules: "works night shifts", "wakes up at 6 am", "goes to bed at 11 pm"
  (p) => {
    const shift = p.match(/^(?:works|work|is working) (?:the |on the )?(night|day|morning|evening|early|late|weekend|graveyard|double|split|overnight)(?: shifts?)$/);
    if (shift) return { slot: 'schedule:work', value: shift[1] };
    const wake = p.match(/^(?:wakes up|gets up|wake up|get up|is up) (?:at |around |by )(.+?)(?: (?:every|each|on) .+)?$/);
    if (wake) return { slot: 'schedule:wake', value: wake[1] };
    const bed = p.match(/^(?:goes to (?:bed|sleep)|go to (?:bed|sleep)|sleeps) (?:at |around |by )(.+?)(?: (?:every|each|on) .+)?$/);
    if (bed) return { slot: 'schedule:bed', value: bed[1] };
    // "has a cocktail-making class on Thursday", "takes piano lessons on Tuesdays and Fridays", "has soccer practice every Monday"
    const day = p.match(
      new RegExp(`^(?:has|have|takes|take|attends|attend|goes to|go to|is taking|teaches|teach)(?: (?:a|an|the|their|the user's|weekly|regular))* ([\\w' -]*?${RECURRING})(?: (?:with|at) [A-Z][\\p{L}' ]+?)? (?:on|every) ${WEEKDAY}$`, 'u'),
    );
    if (day && keyOf(day[1])) return { slot: `schedule:${keyOf(day[1])}`, value: weekdays(day[3]), display: day[3] };
    const goes = p.match(new RegExp(`^(?:goes|go) to (?:the )?([a-z][\\w -]*?) (?:on|every) ${WEEKDAY}$`));
    return goes && keyOf(goes[1]) ? { slot: `schedule:${keyOf(goes[1])}`, value: weekdays(goes[2]), display: goes[2] } : null;
  },
  // what is still needed: "needs 120 stars to reach the gold level", "needs 12 more credits to graduate"
  (p) => {
    const m = p.match(new RegExp(`^(?:needs|need|requires|require|has to (?:earn|get|collect|save|complete)) (?:about |around |at least |only |another )?${NUM}( more| additional| extra)? ([\\p{L}][\\p{L}' -]*?) (?:to|for|before|in order to) (.+)$`, 'iu'));
    const head = m ? keyOf(m[3]).split(' ').pop() : undefined;
    // keyed by the unit and the goal's first word: "stars to reach …" and "points to unlock …" are two needs
    const goal = m ? keyOf(m[4]).split(' ')[0] : undefined;
    return m && head && goal ? { slot: `need:${head} ${goal}`, value: normaliseValue(m[1]), display: m[1] } : null;
  },
  // where the user is in a book: "is on page 220 of Dune"
  (p) => {
    const m = p.match(/^(?:is|are|got|has got|has gotten|made it) (?:now |currently )?(?:up )?(?:on|at|to) page (\d+)(?: of (.+))?$/);
    return m ? { slot: 'progress:page', value: m[1] } : null;
  },
  // likes and languages (multi-valued: the key names the thing)
  (p) => {
    const like = p.match(/^(?:likes|like|loves|love|enjoys|enjoy|is into|is a (?:big |huge )?fan of|is passionate about) (.+)$/);
    if (like) {
      const key = keyOf(like[1]);
      return key ? { slot: `likes:${key}`, value: 'yes', display: like[1] } : null;
    }
    const speaks = p.match(/^(?:speaks|speak) ([A-Z][\p{L}]+)\b/u);
    return speaks ? { slot: `speaks:${keyOf(speaks[1])}`, value: 'yes', display: speaks[1] } : null;
  },
  // habits and activities: "drinks coffee every morning", "smokes", "plays the guitar"
  (p) => habitClaim(p, false),
];

const HABIT_VERBS =
  /^(smokes|smoke|smoking|vapes|vape|vaping|drinks|drink|drinking|plays|play|playing|practises|practices|practise|practice|practising|practicing|runs|run|running|jogs|jog|jogging|swims|swim|swimming|cycles|cycle|cycling|bikes|bike|biking|meditates|meditate|meditating|volunteers|volunteer|volunteering|walks|walk|walking|lifts|lift|lifting|eats|eat|eating|takes|take|taking|goes|go|going|does|do|doing|reads|read|reading|watches|watch|watching|attends|attend|attending|uses|use|using|works out|work out|working out|bakes|bake|baking|cooks|cook|cooking|writes|write|writing|paints|paint|painting|studies|study|studying|teaches|teach|teaching|owns|own|keeps|keep|rides|ride|riding|skates|skate|skating|climbs|climb|climbing|hikes|hike|hiking|surfs|surf|surfing|skis|ski|skiing|dances|dance|dancing|sings|sing|singing|commutes|commute|commuting|wears|wear|wearing|bites|bite|biting|snacks|snack|snacking)\b/;
const FREQUENCY = /\b(?:every|each|daily|weekly|nightly|regularly|usually|often|always|twice|once a|on (?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekends|weekdays)|most (?:days|mornings|nights)|a (?:day|week)|per (?:day|week))\b/;

/** A habit or activity keyed by its verb and first content word: "drinks coffee every morning" → `habit:drink coffe`. */
function habitClaim(p: string, ended: boolean): Parsed | null {
  const v = p.match(HABIT_VERBS);
  if (!v) return null;
  const rest = p.slice(v[0].length).replace(FREQUENCY, ' ').replace(/\b(?:now|these days|anymore|any more|again|at all)\b/g, ' ');
  const object = analyze(rest).filter((w) => !/^\d/.test(w) && !/^(?:morn|night|even|day|week|weekend|time|lot|bit)$/.test(w));
  const verb = analyze(v[1])[0] ?? v[1];
  // a bare verb is a habit only for the ones that are habits alone ("smokes", "drinks", "meditates")
  if (object.length === 0 && !/^(?:smok|vap|drink|meditat|run|jog|swim|cycl|bik|work|hik|climb|surf|ski|snack)/.test(v[1])) return null;
  // a positive statement is a habit only when it says how often, or when the verb is one by itself
  if (!ended && !FREQUENCY.test(p) && !/^(?:smok|vap|drink|meditat|play|practi|volunt)/.test(v[1])) return null;
  return { slot: `habit:${[verb, ...object.slice(0, 1)].join(' ')}`, value: 'yes', display: p };
}

function parsePredicate(predicate: string): Parsed | null {
  let p = predicate;
  while (ADVERB.test(p)) p = p.replace(ADVERB, '');
  for (const [re, positive] of NEGATIONS) {
    const m = p.match(re);
    if (!m) continue;
    const inner = positive(m).replace(/ (?:anymore|any more|any longer)$/, '');
    const parsed = matchRules(inner) ?? habitClaim(inner, true);
    if (parsed) return { ...parsed, negated: !parsed.negated };
  }
  return matchRules(p);
}

function matchRules(p: string): Parsed | null {
  for (const rule of RULES) {
    const r = rule(p);
    if (r) return r;
  }
  return null;
}

/** Where a statement's first clause ends: ", so …", ", but …", ", which …", " - …", "; …". */
const CLAUSE_BREAK = /,? (?:so|but|which|because|since|while|although|though|where|and the user|and now)\b|, | [-–—] |; /;

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
  const parsed = parse(who.predicate) ?? (clause !== who.predicate ? parse(clause) : null);
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
