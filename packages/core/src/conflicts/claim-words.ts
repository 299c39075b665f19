/**
 * The building blocks of the claim grammar (claims.ts, docs/conflicts.md): names, numbers, weekdays, time and
 * change phrases, the attribute slots and how slot names and values are normalised.
 */
import { analyze } from '../text/terms';
/** A capitalised name of a place or organisation, up to four words ("Porto", "New York", "St. Mary's Hospital"). */
export const NAME = "([A-Z\\u00C0-\\u024F0-9][\\p{L}\\p{N}'.&-]*(?:(?: |-| of | de | and | & )[A-Z\\u00C0-\\u024F0-9][\\p{L}\\p{N}'.&-]*){0,4})";
/**
 * A car named by its make and model ("Tesla Model Y", "BMW 3 Series", "Ford F-150 pickup"): what a purchase must
 * name to be the user's vehicle ("bought a Tesla"), since "bought a Kindle" is not one. Makes whose name is also a
 * common word (Smart, Ram, Genesis) are left out.
 */
export const CAR =
  "((?:Toyota|Honda|Tesla|Ford|Chevrolet|Chevy|Nissan|Hyundai|Kia|Mazda|Subaru|Volkswagen|VW|BMW|Mercedes(?:-Benz)?|Audi|Lexus|Volvo|Jeep|Dodge|GMC|Buick|Cadillac|Porsche|Jaguar|Land Rover|Range Rover|Mini Cooper|MINI|Fiat|Peugeot|Renault|Citroën|Citroen|Škoda|Skoda|SEAT|Cupra|Opel|Vauxhall|Dacia|Mitsubishi|Suzuki|Infiniti|Acura|Lincoln|Chrysler|Rivian|Polestar|Alfa Romeo|BYD|Ferrari|Lamborghini|Maserati|Bentley|Aston Martin)(?: (?:[A-Z0-9][\\w-]*|hybrid|electric|plug-in|sedan|hatchback|estate|wagon|convertible|coupe|pickup|truck|SUV)){0,4})";
/** Adverbs an extractor keeps between the subject and the verb ("The user just moved to Porto"). */
export const ADVERB =
  /^(?:now|currently|still|just|recently|finally|actually|officially|already|also|really|then|lately|newly|happily|permanently|mostly) /;
/**
 * When something happened, as the extractors write it after the value: "in April 2023", "on 3 May 2023",
 * "in 2021", "the week before 8 May 2023", "recently", "last month", "in the spring", "now", "these days"; a month
 * or season without its year ("in June", "in early March", "in spring 2026"), and how long it has held ("for three
 * years", "for the past two months", "for a while").
 */
const MONTHS = 'January|February|March|April|May|June|July|August|September|October|November|December';
export const WHEN =
  `(?: (?:on|in|around|since|by|as of)(?: [A-Z][a-z]+,)? (?:\\d{1,2} )?(?:[A-Z][a-z]+ )?\\d{4}| since (?:${MONTHS}|last (?:week|month|year|spring|summer|autumn|fall|winter))| (?:the (?:week|weekend)|a few days) (?:before|of|after) \\d{1,2} [A-Z][a-z]+ \\d{4}| recently| last (?:week|month|year|spring|summer|autumn|fall|winter)| this (?:week|month|year|spring|summer|autumn|fall|winter)| (?:in|during|over) the (?:spring|summer|autumn|fall|winter)(?: of \\d{4})?| (?:in|since|by) (?:early |late |mid-)?(?:${MONTHS})| in (?:early |late )?(?:spring|summer|autumn|fall|winter)(?: \\d{4})?| for (?:the (?:past|last) )?(?:\\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a few|a couple of|several|many) (?:days?|weeks?|months?|years?|decades?)| for a while| now| these days| nowadays| again| full[- ]time| for good)*`;
/** A time phrase the built-in extractor puts in front: "In April 2023, the user moved to Porto." */
export const LEADING_WHEN = /^(?:on|in|around|since|as of|the (?:week|weekend) (?:before|of|after)|a few days before|recently|lately|these days|nowadays|now|actually)\b[^,]{0,40}, (?=the user\b)/i;
/** Asides an extractor appends that do not change the claim: "(as of 21 May 2023)", "(in reply to …)". */
export const ASIDE = /\s+\((?:as of|in reply to|about)\b[^)]*\)?\s*$/;
/** The value a correction replaces, after the new one: ", not Globex", " instead of Lisbon", " rather than tea". */
export const CORRECTED_TAIL = /(?:,? (?:and )?not (?:in |at |a |an )?[A-Z0-9][^,]*|,? (?:instead of|rather than) [^,]+|,? instead)$/;
/** Words that say a value changed or ended. */
export const CHANGE =
  /\b(?:now|these days|nowadays|anymore|any more|any longer|no longer|used to|actually|switched|switching|moved|relocated|quit|stopped|gave up|given up|started|new|became|become|changed|turned|broke up|split up|joined|left|got (?:married|engaged|divorced|promoted)|was promoted|instead|sold|traded|swapped|upgraded|replaced)\b/i;

const NUMBER_WORDS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11,
  twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90, hundred: 100,
};
/** Ordinals of a count ("a third cat" is the user's third): the number they stand for. */
export const ORDINALS: Record<string, number> = {
  second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10, eleventh: 11, twelfth: 12,
};
export const NUM = `(\\d[\\d,.]*|${Object.keys(NUMBER_WORDS).filter((w) => w.length > 2).join('|')})`;

/** A day of the week, or two ("Thursdays", "Tuesday and Thursday"), with an optional part of the day and "now". */
export const WEEKDAY = '((?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days?(?:(?:,| and|,? or) (?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days?)*)(?: (?:mornings?|afternoons?|evenings?|nights?))?(?: now| these days| nowadays| again| instead| from now on)?';
/** Something that recurs on a day of the week: "cocktail-making class", "piano lessons", "soccer practice". */
export const RECURRING = '(class|classes|lesson|lessons|practice|training|rehearsal|rehearsals|club|league games?|sessions?)';
/** Places people live in that are not names: "moved back to the suburbs". */
export const PLACE_NOUN = '(?:the )?(suburbs|countryside|city|city centre|city center|coast|mountains|country|outskirts of [A-Z][\\p{L}]+|downtown)';

/** A weekday value as compared: lower case, singular, in week order ("Thursdays and Tuesdays" → "tuesday thursday"). */
export function weekdays(v: string): string {
  const order = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
  const days = [...v.toLowerCase().matchAll(/(mon|tues|wednes|thurs|fri|satur|sun)day/g)].map((d) => `${d[1]}day`);
  return [...new Set(days)].sort((a, b) => order.indexOf(a.slice(0, 3)) - order.indexOf(b.slice(0, 3))).join(' ');
}

/** People a statement can be about besides the user ("The user's mother lives in Boston"). */
export const KIN =
  /^(mother|mom|mum|father|dad|parents|sister|brother|wife|husband|partner|girlfriend|boyfriend|fianc[ée]e?|son|daughter|kids?|children|friend|best friend|boss|manager|roommate|flatmate|grandmother|grandfather|grandma|grandpa|aunt|uncle|cousin|niece|nephew|colleague|coworker|co-worker|neighbou?r|dog|cat|baby|team|family)(?: ([A-Z][\p{L}'-]+))?\b/u;

/** Attributes said as "The user's <attribute> is <value>", mapped to their slot. */
export const ATTRIBUTE_SLOTS: [RegExp, string][] = [
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
export function keyOf(phrase: string): string {
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
