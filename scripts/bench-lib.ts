/**
 * Helpers for the benchmarks: `npm run bench:api`'s deterministic synthetic data (memories, queries,
 * conversations) and database seeding; percentile maths and report formatting; and the plumbing of the
 * quality benchmarks that drive the public HTTP API (`bench:locomo`, `bench:longmemeval`): their server,
 * tenant, writer, job waiting, flags and result files.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type DatabaseConfig, createDatabase, endUsers, memories, rows, sourceEvents, runMigrations, sql } from '@memory/db';
import { canonicalJson, sha256Hex } from '../packages/core/src/crypto';
import { memoryFingerprint } from '../packages/core/src/memories/fingerprint';
import { createTenant } from '../packages/core/src/tenants/tenants';
import { ADMIN_TOKEN, ROOT, startServer, tempDataDir } from '../tests/integration/server';

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

// ---------------------------------------------------------------------------------------------------------
// Seeding
// ---------------------------------------------------------------------------------------------------------

export const BENCH_USER = 'bench-user-1';
export const ADD_USERS = 200;
const BATCH = 500;

export interface Seeded {
  apiKey: string;
  tenantId: string;
  seedMs: number;
}

export async function seed(config: DatabaseConfig, size: number, checkInterrupted: () => void = () => {}): Promise<Seeded> {
  const t0 = performance.now();
  const database = createDatabase(config.kind === 'postgres' ? { ...config, poolSize: 2 } : config);
  try {
    await runMigrations(config, database);
    const { db } = database;
    const tenant = await createTenant(db, `bench-${size}`);
    const userId = randomUUID();
    await db.insert(endUsers).values({ id: userId, tenantId: tenant.tenant_id, externalUserId: BENCH_USER, memoryVersion: size });

    const now = Date.now();
    const messages = [
      { role: 'user', content: 'I live in Lisbon, I love jazz and I am training for a half marathon.' },
      { role: 'assistant', content: 'Good to know! I will keep that in mind.' },
    ];
    const eventId = randomUUID();
    await db.insert(sourceEvents).values({
      id: eventId,
      tenantId: tenant.tenant_id,
      userId,
      service: 'default',
      eventId: 'evt_bench_seed',
      eventIdGenerated: 0,
      observedAt: new Date(now - 366 * 86_400_000),
      receivedAt: new Date(now - 366 * 86_400_000),
      payloadHash: sha256Hex(canonicalJson({ external_user_id: BENCH_USER, messages, metadata: null })),
      payload: { messages, metadata: null },
    });

    const synthetic = syntheticMemories(size, memoryFingerprint);
    for (let i = 0; i < synthetic.length; i += BATCH) {
      checkInterrupted();
      await db.insert(memories).values(
        synthetic.slice(i, i + BATCH).map((m) => {
          const created = new Date(now - m.ageDays * 86_400_000 - Math.floor(Math.random() * 86_400_000));
          return {
            id: randomUUID(),
            tenantId: tenant.tenant_id,
            userId,
            agentId: null,
            content: m.content,
            category: m.category,
            status: 'active' as const,
            importance: m.importance,
            confidence: m.confidence,
            fingerprint: memoryFingerprint(m.content),
            sourceEventId: eventId,
            jobId: null,
            messageIndices: [0],
            observedAt: created,
            createdAt: created,
            updatedAt: created,
          };
        }),
      );
    }
    // A long-running database has planner statistics; a freshly seeded one would not without this.
    await db.execute(sql`ANALYZE`);
    return { apiKey: tenant.api_key, tenantId: tenant.tenant_id, seedMs: performance.now() - t0 };
  } finally {
    await database.close();
  }
}

/** Extraction jobs by status and memory count, read after the server has stopped. */
export async function jobSummary(config: DatabaseConfig): Promise<{ jobs: Record<string, number>; memories: number; errors: string[] }> {
  const database = createDatabase(config.kind === 'postgres' ? { ...config, poolSize: 1 } : config);
  try {
    const byStatus = await rows<{ status: string; n: number | string }>(
      database.db,
      sql`SELECT status, count(*)::int AS n FROM extraction_jobs GROUP BY status ORDER BY status`,
    );
    const [mem] = await rows<{ n: number | string }>(database.db, sql`SELECT count(*)::int AS n FROM memories`);
    const errs = await rows<{ e: string; n: number | string }>(
      database.db,
      sql`SELECT coalesce(error_summary, error) AS e, count(*)::int AS n FROM extraction_jobs
          WHERE coalesce(error_summary, error) IS NOT NULL GROUP BY 1 ORDER BY 2 DESC LIMIT 5`,
    );
    return {
      jobs: Object.fromEntries(byStatus.map((r) => [r.status, Number(r.n)])),
      memories: Number(mem?.n ?? 0),
      errors: errs.map((r) => `${r.n}× ${String(r.e).slice(0, 300)}`),
    };
  } finally {
    await database.close();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Statistics and formatting
// ---------------------------------------------------------------------------------------------------------

/** Nearest-rank percentile of an ascending-sorted array. */
export function percentile(sorted: number[] | Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export function fmt(x: number, digits = 1): string {
  if (!Number.isFinite(x)) return '–';
  return x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function markdownTable(header: string[], body: string[][], rightAlign: boolean[]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const sep = `|${rightAlign.map((r) => (r ? '---:' : ':---')).join('|')}|`;
  return [line(header), sep, ...body.map(line)].join('\n');
}

export interface Flags {
  sizes: number[];
  engines: Array<'pglite' | 'postgres'>;
  duration: number;
  connections: number;
  out: string;
  warmup: number;
  build: boolean;
  pgUrl: string;
  /** Worker-process counts for the extraction-throughput runs on PostgreSQL (empty: none). */
  workers: number[];
}

export function parseFlags(argv: string[]): Flags {
  const f: Flags = {
    sizes: [1000, 10000],
    engines: ['pglite', 'postgres'],
    duration: 10,
    connections: 20,
    out: 'bench/results',
    warmup: 200,
    build: false,
    pgUrl: process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    workers: [1, 2],
  };
  const need = (i: number, name: string) => {
    const v = argv[i + 1];
    if (v === undefined || v.startsWith('--')) throw new Error(`${name} needs a value`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i];
    const [name, inline] = raw.includes('=') ? [raw.slice(0, raw.indexOf('=')), raw.slice(raw.indexOf('=') + 1)] : [raw, undefined];
    const value = () => {
      if (inline !== undefined) return inline;
      const v = need(i, name);
      i++;
      return v;
    };
    const posInt = (v: string) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n <= 0) throw new Error(`${name}: "${v}" is not a positive integer`);
      return n;
    };
    switch (name) {
      case '--sizes':
        f.sizes = value().split(',').filter(Boolean).map(posInt);
        break;
      case '--engines': {
        const es = value().split(',').filter(Boolean);
        for (const e of es) if (e !== 'pglite' && e !== 'postgres') throw new Error(`--engines: unknown engine "${e}"`);
        f.engines = es as Flags['engines'];
        break;
      }
      case '--duration':
        f.duration = posInt(value());
        break;
      case '--connections':
        f.connections = posInt(value());
        break;
      case '--warmup':
        f.warmup = posInt(value());
        break;
      case '--out':
        f.out = value();
        break;
      case '--pg-url':
        f.pgUrl = value();
        break;
      case '--build':
        f.build = true;
        break;
      case '--workers': {
        const v = value();
        f.workers = v === 'none' ? [] : v.split(',').filter(Boolean).map(posInt);
        break;
      }
      case '--help':
      case '-h':
        throw new HelpRequested();
      default:
        throw new Error(`unknown flag "${raw}"`);
    }
  }
  if (f.sizes.length === 0 || f.engines.length === 0) throw new Error('--sizes and --engines must not be empty');
  return f;
}

export class HelpRequested extends Error {}

export const USAGE = `Usage: npm run bench:api -- [flags]

  --sizes 1000,10000        memories seeded for the benchmark user (one server run per size)
  --engines pglite,postgres storage engines to measure
  --duration 10             seconds per scenario (bare, retrieve, add)
  --connections 20          concurrent connections (autocannon)
  --warmup 200              warm-up requests before each scenario
  --out bench/results       where api-<timestamp>.json and .md are written
  --pg-url URL              admin URL of the local PostgreSQL (default postgres://postgres@127.0.0.1:5432/postgres,
                            or BENCH_PG_ADMIN_URL); must point at 127.0.0.1/localhost
  --workers 1,2             extraction throughput on PostgreSQL with this many worker processes (npm run worker)
                            next to a web server that runs no jobs, one run per count; \`none\` to skip
  --build                   build the app first (npx turbo run build --filter=@memory/web) if it is not built
`;

export interface LatencyStats {
  n: number;
  p50: number;
  p95: number;
}

/** p50 and p95 of a list of latencies (ms), with how many there were. */
export function latencyStats(ms: number[]): LatencyStats {
  const sorted = [...ms].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

// ---------------------------------------------------------------------------------------------------------
// Quality benchmarks over the public HTTP API
// ---------------------------------------------------------------------------------------------------------

export const log = (msg: string) => console.error(msg);

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A JSON client for the /v1 API that waits out 429s (the benchmarks measure the service, not its limits). */
export class Api {
  constructor(
    readonly baseUrl: string,
    private readonly auth: string,
  ) {}
  async call<T>(method: string, p: string, body?: unknown): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${this.baseUrl}${p}`, {
        method,
        headers: { authorization: this.auth, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status === 429 && attempt < 20) {
        await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
        continue;
      }
      if (!res.ok) throw new Error(`${method} ${p} -> ${res.status}: ${text.slice(0, 300)}`);
      return JSON.parse(text) as T;
    }
  }
}

/** Registers the benchmark's service writer; a second run against the same server finds it already there. */
export async function registerWriter(api: Api, serviceKey: string, displayName: string): Promise<void> {
  await api
    .call('POST', '/v1/tenant/service-writers', { service_key: serviceKey, display_name: displayName, authority_rules: { default_priority: 100 } })
    .catch((err: Error) => {
      if (!/409/.test(err.message)) throw err;
    });
}

export interface JobTotals {
  /** Jobs by final status. */
  statuses: Record<string, number>;
  memoriesCreated: number;
  pending: { buffered: number; promoted: number };
  /** Sum of `extraction_metadata.passages_indexed`; null when no job reports it (no evidence layer). */
  passagesIndexed: number | null;
}

interface JobView {
  status: string;
  memories_created: number;
  pending_candidates_buffered: number;
  pending_candidates_promoted: number;
  extraction_metadata?: Record<string, unknown>;
}

/** Polls every job until it has ended (jobs run roughly in queue order, so one at a time costs little). */
export async function waitForJobs(api: Api, jobIds: string[]): Promise<JobTotals> {
  const totals: JobTotals = { statuses: {}, memoriesCreated: 0, pending: { buffered: 0, promoted: 0 }, passagesIndexed: null };
  for (const id of jobIds) {
    for (;;) {
      const { data: job } = await api.call<{ data: JobView }>('GET', `/v1/memories/jobs/${id}`);
      if (['completed', 'processed', 'failed', 'dead'].includes(job.status)) {
        totals.statuses[job.status] = (totals.statuses[job.status] ?? 0) + 1;
        totals.memoriesCreated += job.memories_created;
        totals.pending.buffered += job.pending_candidates_buffered;
        totals.pending.promoted += job.pending_candidates_promoted;
        const passages = job.extraction_metadata?.passages_indexed;
        if (typeof passages === 'number') totals.passagesIndexed = (totals.passagesIndexed ?? 0) + passages;
        break;
      }
      await sleep(100);
    }
  }
  return totals;
}

/** Active memories of these end users: what retrieval can return. */
export async function countActiveMemories(api: Api, externalUserIds: string[]): Promise<number> {
  let n = 0;
  for (const user of externalUserIds) {
    let cursor: string | null = null;
    do {
      const q: string = `/v1/memories?external_user_id=${encodeURIComponent(user)}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page: { data: { items: unknown[]; next_cursor: string | null } } = await api.call('GET', q);
      n += page.data.items.length;
      cursor = page.data.next_cursor;
    } while (cursor);
  }
  return n;
}

/** Where a quality benchmark's API comes from: a server it starts (and its database), or one already running. */
export interface ServerFlags {
  engine: 'pglite' | 'postgres';
  pgUrl: string;
  out: string;
  url: string | null;
  apiKey: string | null;
  keep: boolean;
}

export const serverFlagDefaults = (): ServerFlags => ({
  engine: 'pglite',
  pgUrl: 'postgres://postgres@127.0.0.1:5432/postgres',
  out: 'bench/results',
  url: null,
  apiKey: null,
  keep: false,
});

export const SERVER_FLAGS_USAGE = `  --engine pglite|postgres  database of the server the script starts (default pglite, the embedded default)
  --pg-url <url>         PostgreSQL admin URL for --engine postgres (a fresh database is created and dropped)
  --url <base> --api-key <key>  use a running server instead of starting one
  --out <dir>            where to write the JSON and Markdown results (default bench/results)
  --keep                 keep the temporary data directory / database`;

/** A flag's handler; `value()` consumes the flag's argument. */
export type FlagHandler = (value: () => string) => void;

export function serverFlagHandlers(f: ServerFlags): Record<string, FlagHandler> {
  return {
    '--engine': (value) => {
      const v = value();
      if (v !== 'pglite' && v !== 'postgres') throw new Error('--engine must be pglite or postgres');
      f.engine = v;
    },
    '--pg-url': (value) => (f.pgUrl = value()),
    '--out': (value) => (f.out = value()),
    '--url': (value) => (f.url = value().replace(/\/$/, '')),
    '--api-key': (value) => (f.apiKey = value()),
    '--keep': () => (f.keep = true),
  };
}

/** Runs each flag's handler; `--help` prints the usage and exits. */
export function readArgs(argv: string[], handlers: Record<string, FlagHandler>, usage: string): void {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') {
      console.log(usage);
      process.exit(0);
    }
    const handler = handlers[a];
    if (!handler) throw new Error(`unknown flag ${a}\n\n${usage}`);
    handler(() => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    });
  }
}

/** A path given on the command line: `npm run` changes to the repository root, so resolve it where npm was called. */
export const cliPath = (p: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), p);

/** A positive integer flag value. */
export function positiveInt(flag: string, v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${flag}: "${v}" is not a positive integer`);
  return n;
}

/**
 * Starts the built app (building it when there is no build) on a fresh PGlite directory or a fresh PostgreSQL
 * database named after `label`, or uses `flags.url`; creates a tenant and runs `run` with its API. The server's
 * log is printed when `run` fails; the data is removed afterwards unless `--keep`.
 */
export async function withBenchServer<T>(flags: ServerFlags, label: string, run: (api: Api) => Promise<T>): Promise<T> {
  if (flags.url) {
    if (!flags.apiKey) throw new Error('--url needs --api-key');
    return run(new Api(flags.url, `ApiKey ${flags.apiKey}`));
  }
  if (!existsSync(path.join(ROOT, 'apps/web/.next/BUILD_ID'))) {
    log('building the app: npx turbo run build --filter=@memory/web');
    execFileSync('npx', ['turbo', 'run', 'build', '--filter=@memory/web', '--output-logs=errors-only'], { cwd: ROOT, stdio: 'inherit' });
  }
  const env: Record<string, string> = { MEMORY_LOG_LEVEL: 'warn', MEMORY_JOB_POLL_MS: '50' };
  let dropData: () => Promise<void>;
  let server: Awaited<ReturnType<typeof startServer>>;
  if (flags.engine === 'pglite') {
    const dir = tempDataDir();
    server = await startServer('pglite', { ...env, MEMORY_DATA_DIR: dir });
    dropData = async () => (flags.keep ? log(`kept data dir ${dir}`) : rmSync(dir, { recursive: true, force: true }));
  } else {
    const { default: postgres } = await import('postgres');
    const admin = postgres(flags.pgUrl, { max: 1, onnotice: () => {} });
    const dbName = `memory_${label}_${Date.now()}`;
    await admin.unsafe(`CREATE DATABASE ${dbName}`);
    const url = new URL(flags.pgUrl);
    url.pathname = `/${dbName}`;
    server = await startServer('postgres', { ...env, DATABASE_URL: url.toString() });
    dropData = async () => {
      if (!flags.keep) await admin.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      else log(`kept database ${dbName}`);
      await admin.end();
    };
  }
  try {
    const admin = new Api(server.baseUrl, `Bearer ${ADMIN_TOKEN}`);
    const tenant = await admin.call<{ data: { api_key: string } }>('POST', '/v1/admin/tenants', { name: `${label}-${Date.now()}` });
    return await run(new Api(server.baseUrl, `ApiKey ${tenant.data.api_key}`));
  } catch (err) {
    process.stderr.write(`--- server log ---\n${server.output().slice(-4000)}\n`);
    throw err;
  } finally {
    await server.stop();
    await dropData();
  }
}

/** What a result was measured on: the commit and the machine. */
export function runContext(): { commit: string | null; machine: { cpus: number; cpu: string; node: string } } {
  let commit: string | null = null;
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    // not a git checkout
  }
  return { commit, machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model ?? 'unknown', node: process.version } };
}

/** Writes `<out>/<name>-<stamp>.json` and `.md` and prints the Markdown. */
export function writeReport(out: string, name: string, date: string, result: unknown, markdown: string): void {
  const outDir = path.resolve(ROOT, out);
  mkdirSync(outDir, { recursive: true });
  const base = path.join(outDir, `${name}-${date.replace(/[:.]/g, '-')}`);
  writeFileSync(`${base}.json`, `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(`${base}.md`, markdown);
  console.log(markdown);
  log(`wrote ${path.relative(ROOT, base)}.json and .md`);
}

/** Runs `main` when the file is the script node was started with, exiting with its code. */
export function runIfMain(filename: string, main: () => Promise<number>): void {
  if (!process.argv[1] || path.resolve(process.argv[1]) !== path.resolve(filename)) return;
  main().then(
    (code) => process.exit(code),
    (err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
