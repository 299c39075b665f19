/**
 * The statement rules of the claim grammar (claims.ts, docs/conflicts.md): the person a statement is about, and
 * the slot, value and polarity its predicate states; the first rule that matches wins.
 */
import { isOccupation } from '../text/occupations';
import { analyze } from '../text/terms';
import { ADVERB, ATTRIBUTE_SLOTS, CAR, KIN, NAME, NUM, ORDINALS, PLACE_NOUN, RECURRING, WEEKDAY, WHEN, keyOf, normaliseSlot, normaliseValue, weekdays } from './claim-words';

interface Parsed {
  slot: string;
  value: string;
  display?: string;
  negated?: boolean;
}

/** The person a statement is about and what it says of them. */
export function splitPerson(text: string): { person: string; predicate: string; possessive: boolean } | null {
  // "The user and Priya moved to Ghent" (from "Priya and I …") says it of the user too
  const user = text.match(
    /^The user(?: and (?:(?:their|the user's) (?:household|family|partner|wife|husband|kids|children|team|roommates?|flatmates?)|[A-Z][\p{L}'-]+))?(?: (?:both|together))? (.+)$/u,
  );
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
export function possessiveClaim(predicate: string): Parsed | null {
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
  // the value ends where a new subject starts: "name is Omar and he's a dentist"
  const value = m[2].replace(/,? and (?:he|she|they|his|her|their)\b.*$/, '');
  return { slot, value: value.replace(/^(?:now|currently) /, '').replace(/ (?:now|these days|nowadays|again|currently|at the moment)$/, '') };
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

const VERB_FORMS = '(?:lives|live|living|is living|has been living|has lived|resides|reside|has moved|moved|move|is based|relocated|relocate|has relocated|has settled|settled)';
/** A move's verbs: the ones a place the user came from can follow ("moved from Lisbon to Porto"). */
const MOVE_FORMS = '(?:has moved|moved|relocated|has relocated)';
/** A capitalised place that is not the value (no capture): the place a move left. */
const OLD_PLACE = "[A-Z\\u00C0-\\u024F][\\p{L}'-]+(?: [A-Z\\u00C0-\\u024F][\\p{L}'-]+){0,2}";
/** Where a move came from, after its destination: "… from Lisbon", "… after six years in Lisbon", "… after a decade in Lisbon". */
const ORIGIN = `(?: (?:from|away from|after (?:[\\w-]+ ){0,3}(?:in|at)) ${OLD_PLACE})?`;

/**
 * A title said with "is … now" or "became" names a job when its last word is an occupation and it is not said of
 * how well or for what it is done: "a better cook now", "an amateur photographer", "an aspiring writer".
 */
const occupationTitle = (title: string) =>
  !/^(?:better|best|good|great|decent|bad|worse|terrible|awful|amazing|much|pretty|real|huge|big|proud|amateur|hobby|aspiring|wannabe|budding|self-taught|keen|avid|weekend)\b/.test(title) &&
  isOccupation(title.split(' ').at(-1) ?? '');

const RULES: ((p: string) => Parsed | null)[] = [
  // residence: "lives in Porto", "moved to Porto in April 2023", "is based in Berlin now"
  (p) => {
    const m = p.match(new RegExp(`^${VERB_FORMS} (?:back )?(?:in|to) ${NAME}(?:, [A-Z][\\p{L}]+)?${WHEN}$`, 'u'));
    return m ? { slot: 'residence', value: m[1] } : null;
  },
  // a move that names the place it left: "moved from Lisbon to Porto", "moved to Porto after six years in Lisbon"
  (p) => {
    const m =
      p.match(new RegExp(`^${MOVE_FORMS} (?:back )?to ${NAME}(?:, [A-Z][\\p{L}]+)?${ORIGIN}${WHEN}$`, 'u')) ??
      p.match(new RegExp(`^${MOVE_FORMS} (?:away )?from ${OLD_PLACE} (?:back )?to ${NAME}(?:, [A-Z][\\p{L}]+)?${WHEN}$`, 'u'));
    return m ? { slot: 'residence', value: m[1] } : null;
  },
  (p) => {
    const m = p.match(new RegExp(`^${VERB_FORMS} (?:back )?(?:in|to) ${PLACE_NOUN}${WHEN}$`, 'u'));
    return m ? { slot: 'residence', value: m[1] } : null;
  },
  // "is in Porto now", "is now based in Berlin": where the user is, said as a change (a trip says no "now")
  (p) => {
    const m = p.match(new RegExp(`^(?:is|are) (?:now (?:in|based in) ${NAME}|(?:in|based in) ${NAME} (?:now|these days|nowadays))$`, 'u'));
    return m ? { slot: 'residence', value: m[1] ?? m[2] } : null;
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
  // employer: "works at Acme", "works at Acme as an engineer", "joined Stripe", "started a new job as a data scientist at Stripe"
  (p) => {
    const m =
      p.match(new RegExp(`^(?:works|work|working|is working|is employed|has worked|has been working|interns|is interning) (?:at|for) ${NAME}(?: as (?:a |an )?[\\w -]+?)?${WHEN}$`, 'u')) ??
      p.match(new RegExp(`^(?:is employed by|joined|has joined|is joining|started (?:a new job|a job|a new position|a position|working|work|an internship)(?: as (?:a |an )?[\\w -]+?)? (?:at|with)|got (?:a |an )?(?:new )?(?:job|position|offer|internship)(?: as (?:a |an )?[\\w -]+?)? (?:at|with)|accepted (?:a |an )?(?:new )?(?:job|offer|position)(?: as (?:a |an )?[\\w -]+?)? (?:at|from|with)|landed (?:a |an )?(?:new )?job at) ${NAME}${WHEN}$`, 'u'));
    if (m) return { slot: 'employer', value: m[1] };
    const left = p.match(new RegExp(`^(?:left|quit|resigned from|was laid off from|got laid off from|was fired from)(?: (?:their|the user's|a|the|her|his) job (?:at|with))? ${NAME}${WHEN}$`, 'u'));
    return left ? { slot: 'employer', value: left[1], negated: true } : null;
  },
  // job title: "works as a pediatric nurse", "was promoted to senior engineer"; an occupation said as a change:
  // "is a school nurse now", "is now a welder", "became a paramedic" (not "is a nurse": someone's job or role may
  // be said that way among others, "is a mother", "is a runner"; only a change replaces the job it follows)
  (p) => {
    const m =
      p.match(/^(?:works|work|working|is working|is employed|started working|has started working|got a (?:new )?job|started a (?:new )?job) as (?:a |an )?([\w -]+?)(?: (?:at|for|in) .+)?$/) ??
      p.match(/^(?:got|was|has been) promoted to (?:a |an )?([\w -]+?)(?: (?:at|for|in) .+)?$/);
    if (m) return { slot: 'job_title', value: m[1] };
    const became =
      p.match(/^(?:is now|is currently|became|has become|has now become) (?:a |an )([a-z][\w -]*?)(?: (?:at|for|in) .+)?$/) ??
      p.match(/^is (?:a |an )([a-z][\w -]*?)(?: (?:at|for|in) .+?)? (?:now|these days)$/);
    return became && occupationTitle(became[1]) ? { slot: 'job_title', value: became[1] } : null;
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
    // a bare number is an age too ("I'm 35 now" → "is 35"), but only a person's: 1–120
    const m =
      p.match(/^(?:is|are) (\d{1,3}) (?:years old|years of age|yrs old)$/) ??
      p.match(/^(?:just )?turned (\d{1,3})(?: years old)?(?: (?:on|in) .+)?$/) ??
      p.match(/^is (?:now )?(\d{1,3})(?: now)?$/);
    return m && Number(m[1]) > 0 && Number(m[1]) <= 120 ? { slot: 'age', value: m[1] } : null;
  },
  // a name changed: "changed the user's name to Maria Silva", "legally changed their last name to Okafor"
  (p) => {
    const m = p.match(/^(?:has )?(?:legally |officially )?changed (?:the user's |their |his |her )?(?:first |last |legal |full |sur)?name to ([A-Z][\p{L}'’-]+(?: [A-Z][\p{L}'’-]+){0,3})$/u);
    return m ? { slot: 'name', value: m[1] } : null;
  },
  // vehicle: "drives a Honda Civic"
  (p) => {
    const m = p.match(/^(?:drives|drive|is driving|driving|switched to driving) (?:a |an |the )?((?:[A-Z0-9][\w-]*)(?: [\w-]+){0,4})(?: now| these days| again)?$/);
    return m && !/^(?:to|home|back|around)\b/i.test(m[1]) ? { slot: 'vehicle', value: m[1] } : null;
  },
  // a car bought, or one given up: "bought a Tesla Model Y", "sold the Civic and bought a Kia Niro", "traded in the
  // Civic for a Toyota RAV4", "got a new car, a Mazda CX-5", "sold their Honda Civic"
  (p) => vehicleChange(p),
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
  // a count reached by one more: "got a third cat", "adopted another cat, so now the user has three"
  (p) => countByOneMore(p),
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

/**
 * How a purchase reaches the car it names, with what the user gave up on the way (not kept: the car now is the
 * value). Done, not planned: "is getting a Ford next month" or "ordered a Tesla" does not replace the car the user
 * drives today.
 */
const ACQUIRED =
  '(?:(?:has )?(?:bought|got|purchased|leased|picked up)|(?:traded|swapped)(?: in)? .+? for|(?:upgraded|switched) (?:from .+? )?to|replaced .+? with|(?:sold|got rid of) .+? and (?:bought|got|purchased|leased))';
/** What may stand between the verb and the car: "a new", "their first", "a used electric". */
const CAR_DETERMINERS = "(?:(?:a|an|the|their|the user's|first|new|brand-new|used|second-hand|secondhand|own|another) )*";

const BOUGHT_CAR = new RegExp(`^${ACQUIRED} ${CAR_DETERMINERS}${CAR}${WHEN}$`, 'u');
/** The car named after the word car: "got a new car, a Mazda CX-5", "bought a car, a used Corolla". */
const BOUGHT_NAMED_CAR = new RegExp(`^${ACQUIRED} ${CAR_DETERMINERS}car, ${CAR_DETERMINERS}([A-Z0-9][\\w-]*(?: [A-Z0-9][\\w-]*){0,3})${WHEN}$`, 'u');
const CAR_GONE = new RegExp(`^(?:sold|got rid of|scrapped|totaled|totalled|gave away) ${CAR_DETERMINERS}(?:old )?${CAR}${WHEN}$`, 'u');

function vehicleChange(p: string): Parsed | null {
  const bought = p.match(BOUGHT_CAR) ?? p.match(BOUGHT_NAMED_CAR);
  if (bought) return { slot: 'vehicle', value: bought[1] };
  const gone = p.match(CAR_GONE);
  return gone ? { slot: 'vehicle', value: gone[1], negated: true } : null;
}

/** A thing joining the ones the user has: "got", "adopted", "bought", "brought home", "welcomed". */
const ONE_MORE_VERB = '(?:has )?(?:got|adopted|bought|purchased|picked up|brought home|welcomed|rescued|added|took in)';
const OWNER = "(?:a|an|their|the user's|the household's|our|my) ";
const THING = "([\\p{L}][\\p{L}'-]*(?: [\\p{L}][\\p{L}'-]*)?)";
/** "got a third cat", "adopted their fourth rescue dog last week": the ordinal is the new count. */
const NTH_THING = new RegExp(`^${ONE_MORE_VERB} ${OWNER}(${Object.keys(ORDINALS).join('|')}) ${THING}${WHEN}$`, 'iu');
/** "adopted another cat, so now the user has three": the count said after one more. */
const ANOTHER_THEN_COUNT = new RegExp(
  `^${ONE_MORE_VERB} (?:another|one more|a new) ${THING}${WHEN},? (?:and|so) (?:now )?(?:(?:the user|the user and their household|they|we|the household) )?(?:now )?(?:has|have|owns|own) (?:a total of )?${NUM}(?: of them| in total| total| now)?$`,
  'iu',
);

const NOT_KEPT = /^(?:opinion|chanc|time|look|thought|tri|attempt|round|place|half|wind|guess|help|date|interview|shot|call|dose|job|offer|degre|draft|wife|husband)$/;

function countByOneMore(p: string): Parsed | null {
  const nth = p.match(NTH_THING);
  const total = nth ? null : p.match(ANOTHER_THEN_COUNT);
  const thing = nth?.[2] ?? total?.[1];
  const head = thing ? keyOf(thing).split(' ').pop() : undefined;
  // "a second opinion", "a third chance", "a second look": not things the user keeps
  if (!head || NOT_KEPT.test(head)) return null;
  if (nth) {
    const count = String(ORDINALS[nth[1].toLowerCase()]);
    return { slot: `count:${head}`, value: count, display: count };
  }
  return { slot: `count:${head}`, value: normaliseValue(total![2]), display: total![2] };
}

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

/** An adverb after the auxiliary ("is now working at", "has just moved to"): read as "is working at", "has moved to". */
const AUXILIARY_ADVERB = /^(is|are|has|have) (?:now|currently|still|just|recently|finally|actually|already) /;
/** A time word after the claim that rules with no time phrase of their own do not take ("is vegan now"). */
const TRAILING_NOW = / (?:now|these days|nowadays|currently|at the moment)$/;

export function parsePredicate(predicate: string): Parsed | null {
  let p = predicate;
  while (ADVERB.test(p)) p = p.replace(ADVERB, '');
  const plain = p.replace(AUXILIARY_ADVERB, '$1 ');
  return (
    parseBare(p) ??
    (plain !== p ? parseBare(plain) : null) ??
    (TRAILING_NOW.test(plain) ? parseBare(plain.replace(TRAILING_NOW, '')) : null)
  );
}

function parseBare(p: string): Parsed | null {
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
