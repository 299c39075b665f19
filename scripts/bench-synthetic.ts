/**
 * `npm run bench:api`'s deterministic synthetic data: a seeded random generator, memories from category
 * templates, the retrieve queries and the conversations the add benchmark sends.
 */

export const CATEGORIES = ['fact', 'preference', 'goal', 'expertise', 'relationship', 'procedure', 'event'] as const;
export type Category = (typeof CATEGORIES)[number];

/** Small, fast, seeded PRNG (mulberry32) so every run seeds the same data set. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

const V = {
  city: ['Lisbon', 'Porto', 'Berlin', 'Madrid', 'Barcelona', 'Paris', 'Lyon', 'Amsterdam', 'Rotterdam', 'Copenhagen',
    'Stockholm', 'Oslo', 'Helsinki', 'Dublin', 'Edinburgh', 'Manchester', 'London', 'Brussels', 'Vienna', 'Prague',
    'Warsaw', 'Krakow', 'Budapest', 'Zurich', 'Munich', 'Milan', 'Rome', 'Naples', 'Athens', 'Istanbul', 'Toronto',
    'Montreal', 'Vancouver', 'Boston', 'Chicago', 'Austin', 'Seattle', 'Denver', 'Tokyo', 'Osaka', 'Seoul', 'Singapore',
    'Sydney', 'Melbourne', 'Auckland', 'Cape Town', 'Nairobi', 'Buenos Aires', 'Santiago', 'Mexico City'],
  job: ['a software engineer', 'a data scientist', 'a product manager', 'a nurse', 'a high-school teacher', 'an architect',
    'a graphic designer', 'an accountant', 'a civil engineer', 'a pharmacist', 'a journalist', 'a chef', 'a lawyer',
    'a physiotherapist', 'a UX researcher', 'a site reliability engineer', 'a marketing lead', 'a veterinarian',
    'an electrician', 'a translator'],
  company: ['a fintech startup', 'a large bank', 'a public hospital', 'a design agency', 'a logistics company',
    'a game studio', 'the city council', 'a small bakery', 'a university lab', 'an energy utility', 'a consultancy',
    'an e-commerce shop', 'a non-profit', 'a car maker', 'a newspaper'],
  pet: ['dog', 'cat', 'parrot', 'rabbit', 'tortoise', 'golden retriever', 'border collie', 'Maine Coon', 'hamster', 'beagle'],
  name: ['Ana', 'Miguel', 'Sofia', 'Lucas', 'Emma', 'Noah', 'Olivia', 'Liam', 'Mia', 'Hugo', 'Lea', 'Jonas', 'Clara',
    'Mateo', 'Ines', 'Tomás', 'Freya', 'Arjun', 'Priya', 'Kenji', 'Yuki', 'Amara', 'Kofi', 'Nadia', 'Omar', 'Zoe',
    'Felix', 'Ingrid', 'Pablo', 'Chiara'],
  relative: ['sister', 'brother', 'mother', 'father', 'daughter', 'son', 'grandmother', 'cousin', 'uncle', 'aunt'],
  genre: ['jazz', 'classical', 'hip-hop', 'indie rock', 'fado', 'techno', 'bossa nova', 'blues', 'k-pop', 'folk',
    'heavy metal', 'reggae', 'soul', 'opera', 'ambient'],
  food: ['sushi', 'spicy ramen', 'mushrooms', 'olives', 'coriander', 'blue cheese', 'dark chocolate', 'Thai curry',
    'grilled sardines', 'oysters', 'pineapple on pizza', 'falafel', 'tacos', 'liquorice', 'kimchi'],
  drink: ['black coffee', 'green tea', 'oat-milk lattes', 'sparkling water', 'espresso', 'chai', 'matcha', 'red wine',
    'craft beer', 'orange juice'],
  hobby: ['rock climbing', 'trail running', 'sourdough baking', 'birdwatching', 'chess', 'surfing', 'pottery',
    'woodworking', 'photography', 'gardening', 'cycling', 'board games', 'yoga', 'salsa dancing', 'kayaking'],
  language: ['Japanese', 'Spanish', 'German', 'Mandarin', 'Portuguese', 'Italian', 'Korean', 'Arabic', 'French', 'Dutch'],
  tech: ['TypeScript', 'Python', 'Rust', 'Go', 'PostgreSQL', 'Kubernetes', 'React', 'Terraform', 'Kotlin', 'Swift',
    'Elixir', 'C++', 'AWS', 'Spark', 'Django'],
  field: ['machine learning', 'tax law', 'sports nutrition', 'wine tasting', 'medieval history', 'astrophotography',
    'urban planning', 'behavioural economics', 'cybersecurity', 'early childhood education', 'supply-chain management',
    'orthopaedic rehabilitation'],
  thing: ['house', 'flat', 'electric car', 'road bike', 'sailing boat', 'camper van', 'piano', 'new laptop'],
  race: ['half marathon', 'marathon', '10K race', 'triathlon', 'trail ultra'],
  month: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November',
    'December'],
  year: ['2016', '2017', '2018', '2019', '2020', '2021', '2022', '2023', '2024', '2025'],
  weekday: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
  activity: ['short run', 'ten-minute meditation', 'cold shower', 'stretching routine', 'walk with the dog', 'journal entry'],
  diet: ['vegetarian', 'vegan', 'pescatarian', 'gluten-free', 'lactose intolerant', 'on a low-carb diet'],
  allergy: ['peanuts', 'shellfish', 'penicillin', 'pollen', 'cats', 'gluten', 'bee stings', 'latex'],
  age: ['24', '27', '29', '31', '33', '35', '38', '41', '44', '47', '52', '58'],
  n: ['two', 'three', 'four', 'five', 'six', 'eight', 'ten', 'twelve', 'fifteen'],
  sport: ['football', 'tennis', 'basketball', 'padel', 'volleyball', 'rugby', 'cricket', 'badminton'],
  team: ['Benfica', 'FC Porto', 'Arsenal', 'Real Madrid', 'Bayern Munich', 'the Boston Celtics', 'Ajax', 'Juventus'],
  event: ['a wedding', 'a job interview', 'a conference talk', 'a hackathon', 'a family reunion', 'a music festival',
    'a bad fall while skiing', 'surgery on their knee'],
  tool: ['Notion', 'Obsidian', 'a paper notebook', 'Todoist', 'Google Calendar', 'a whiteboard', 'Trello', 'Emacs org-mode'],
} as const;

type Slot = keyof typeof V;

const TEMPLATES: Record<Category, string[]> = {
  fact: [
    'The user lives in {city}.',
    'The user works as {job} at {company}.',
    'The user has a {pet} named {name}.',
    'The user is {age} years old and lives in {city}.',
    'The user is {diet}.',
    'The user is allergic to {allergy}.',
    'The user grew up in {city} and moved to {city2} later.',
    'The user speaks {language} at home.',
    'The user drives to work in {city} every day.',
  ],
  preference: [
    'The user loves {genre}.',
    'The user loves {genre} music, especially live concerts in {city}.',
    'The user prefers {drink} over {drink2}.',
    'The user dislikes {food}.',
    'The user enjoys {hobby} on weekends.',
    'The user prefers short, direct answers with {tech} examples.',
    'The user likes to watch {sport} and supports {team}.',
    'The user prefers aisle seats when flying to {city}.',
    'The user finds {food} delicious and orders it often in {city}.',
  ],
  goal: [
    'The user wants to run a {race} in {city} by {month}.',
    'The user is saving money to buy a {thing}.',
    'The user plans to learn {language} this year.',
    'The user wants to get better at {hobby}.',
    'The user aims to lead a team at {company} within {n} years.',
    'The user hopes to move to {city} next {month}.',
    'The user wants to master {tech} for their job at {company}.',
  ],
  expertise: [
    'The user has {n} years of experience with {tech}.',
    'The user is an expert in {field}.',
    'The user teaches {hobby} classes in {city}.',
    'The user holds a certification in {tech}.',
    'The user has deep knowledge of {field} and {field2}.',
    'The user is fluent in {language} and {language2}.',
  ],
  relationship: [
    "The user's {relative} {name} lives in {city}.",
    "The user's best friend is {name}, who works as {job}.",
    "The user's partner {name} is {job}.",
    "The user's manager is {name}.",
    'The user often plays {sport} with their {relative} {name}.',
    "The user's {relative} {name} is allergic to {allergy}.",
  ],
  procedure: [
    'The user starts every morning with {drink} and a {activity}.',
    'The user reviews pull requests on {weekday} afternoons.',
    'The user plans the week every {weekday} using {tool}.',
    'The user goes {hobby} every {weekday} after work.',
    'The user keeps all meeting notes in {tool}.',
    'The user calls their {relative} {name} every {weekday} evening.',
  ],
  event: [
    'The user moved to {city} in {month} {year}.',
    'The user attended a {genre} concert in {city} in {year}.',
    'The user started a new job at {company} in {month} {year}.',
    'The user had {event} in {city} in {month} {year}.',
    'The user adopted a {pet} in {year}.',
    'The user ran a {race} in {city} in {year}.',
    'The user travelled to {city} with {name} in {month} {year}.',
  ],
};

/**
 * Fills `{slot}`s from the vocabulary. `{city}` and `{city2}` draw from the same list but get different
 * values; a slot keeps its value across every template filled with the same `bound` map (one conversation).
 */
function fill(template: string, r: () => number, bound: Map<string, string> = new Map()): string {
  return template.replace(/\{([a-z]+)(\d*)\}/g, (_, base: string, n: string) => {
    const key = base + n;
    const known = bound.get(key);
    if (known !== undefined) return known;
    const taken = new Set([...bound].filter(([k]) => k !== key && k.replace(/\d+$/, '') === base).map(([, v]) => v));
    let v = pick(r, V[base as Slot]);
    for (let i = 0; i < 8 && taken.has(v); i++) v = pick(r, V[base as Slot]);
    bound.set(key, v);
    return v;
  });
}

export interface SyntheticMemory {
  content: string;
  category: Category;
  importance: number;
  confidence: number;
  /** Days before "now" the memory was created. */
  ageDays: number;
}

/**
 * `count` distinct third-person memories. `fingerprintOf` decides distinctness (the service's own
 * normalisation), so every row gets a unique fingerprint.
 */
export function syntheticMemories(count: number, fingerprintOf: (s: string) => string, seed = 42): SyntheticMemory[] {
  const r = rng(seed);
  const seen = new Set<string>();
  const out: SyntheticMemory[] = [];
  while (out.length < count) {
    const category = CATEGORIES[out.length % CATEGORIES.length];
    let content = '';
    for (let attempt = 0; ; attempt++) {
      content = fill(pick(r, TEMPLATES[category]), r);
      if (attempt >= 8) {
        // Vocabulary exhausted for this template mix: add a dated clause, then a plain serial as a last resort.
        content = `${content.slice(0, -1)}, as mentioned in ${pick(r, V.month)} ${pick(r, V.year)}.`;
        if (seen.has(fingerprintOf(content))) content = `${content.slice(0, -1)} (note ${out.length + 1}).`;
      }
      if (!seen.has(fingerprintOf(content))) break;
    }
    seen.add(fingerprintOf(content));
    out.push({
      content,
      category,
      importance: round2(0.1 + r() * 0.9),
      confidence: round2(0.5 + r() * 0.5),
      ageDays: Math.floor(r() * 365),
    });
  }
  return out;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** ~20 realistic retrieval queries touching the vocabulary above. */
export const RETRIEVE_QUERIES = [
  'Where does the user live?',
  'What kind of music does the user like?',
  'Any food the user dislikes or is allergic to?',
  'What are the user goals for this year?',
  'Which programming languages and tools does the user know?',
  "Tell me about the user's family and friends",
  'What does the user drink in the morning?',
  'Is the user vegetarian or vegan?',
  'What does the user do for work?',
  'Which sports team does the user support?',
  'Has the user run a marathon before?',
  'What pets does the user have?',
  'Recommend a weekend activity the user would enjoy',
  'What languages does the user speak?',
  'When did the user move to Lisbon?',
  'How does the user organise their week?',
  'Plan a trip to Tokyo for the user',
  "Who is the user's manager?",
  'Suggest a jazz concert in Berlin',
  'What is the user saving money for?',
];

/** Conversations for /v1/memories/add: first-person disclosures so the gate accepts them. */
const ADD_TURNS: Array<[string, string]> = [
  ['Hi! I just moved to {city} and I am looking for a good {genre} bar nearby.', 'Welcome to {city}! Do you prefer quiet places or live music?'],
  ['I work as {job} at {company} and my manager {name} wants a report on {field} by {month}.', 'Happy to help you structure the report. What should it cover first?'],
  ['My {relative} {name} is visiting next {weekday}, can you suggest a restaurant? They are {diet}.', 'Sure — are you thinking of something casual or a special dinner?'],
  ['I am training for a {race} in {city} and I usually run on {weekday} mornings.', 'Great goal! How many kilometres are you running per week right now?'],
  ['I have {n} years of experience with {tech} but I want to learn {tech2} properly.', 'Good plan. Do you prefer a course or a hands-on project?'],
  ['I am allergic to {allergy}, so please keep that in mind for recipes.', 'Noted. Do you want quick weeknight recipes or weekend projects?'],
  ['We adopted a {pet} called {name} last {month} and I need tips on training.', 'Congratulations! How old is {name}?'],
  ['I prefer {drink} in the morning and I start the day with a {activity}.', 'That sounds like a solid routine. Want help planning the rest of your morning?'],
  ['I love {hobby} and I am saving for a {thing} this year.', 'Nice! What is your monthly savings target?'],
  ['My partner {name} and I are planning a trip to {city} in {month}.', 'Lovely. How many days will you stay, and what do you both enjoy?'],
];

export function addConversation(seq: number, r: () => number): Array<{ role: 'user' | 'assistant'; content: string }> {
  const [u, a] = ADD_TURNS[seq % ADD_TURNS.length];
  const bound = new Map<string, string>();
  const turns: Array<{ role: 'user' | 'assistant'; content: string }> = [
    { role: 'user', content: fill(u, r, bound) },
    { role: 'assistant', content: fill(a, r, bound) },
  ];
  if (seq % 3 === 0) turns.push({ role: 'user', content: fill('I also enjoy {hobby} and I support {team}.', r, bound) });
  return turns;
}
