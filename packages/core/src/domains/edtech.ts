/**
 * The EdTech student profile (docs/domain-schemas.md, "EdTech"). Built at READ time from the user's active
 * memories, by rules over the memory texts the extractors write ("The user is in 10th grade.", "The user
 * struggles with fractions.", "The user has a chemistry exam on 12 June 2025."). Nothing is stored: the
 * profile is always consistent with the memories (a forgotten, corrected or expired memory leaves it at
 * once), switching schemas loses nothing, and the rules can improve without a backfill. A user's active
 * set is small (hundreds of short texts), so building it costs well under a millisecond per read.
 *
 * Each entry keeps the ids of the memories it was read from and their source events (provenance).
 * Entries with the same value (case-insensitive) are merged; newer memories come first.
 */
import { type Db, rows, sql } from '@memory/db';
import { Errors } from '../errors';
import type { ProfileEntry, StudentProfile, StudentProfileField } from '../schemas/domains';
import { type DomainSection, registerDomainSection } from '../retrieval/domain-section';
import { findUser } from '../users';
import { tenantDomainSchema } from './settings';

export interface ProfileMemory {
  id: string;
  content: string;
  source_event_id: string | null;
  /** Newest first when sorted by this; ISO or Date. */
  created_at: Date | string;
}

/** Subjects recognised by name anywhere in a memory (shown with this spelling). */
const SUBJECTS: Array<[RegExp, string]> = [
  [/\b(?:maths?|mathematics)\b/i, 'math'],
  [/\balgebra\b/i, 'algebra'],
  [/\bgeometry\b/i, 'geometry'],
  [/\btrigonometry\b/i, 'trigonometry'],
  [/\bcalculus\b/i, 'calculus'],
  [/\bstatistics\b/i, 'statistics'],
  [/\bchemistry\b/i, 'chemistry'],
  [/\bphysics\b/i, 'physics'],
  [/\bbiology\b/i, 'biology'],
  [/\bscience\b/i, 'science'],
  [/\bhistory\b/i, 'history'],
  [/\bgeography\b/i, 'geography'],
  [/\beconomics\b/i, 'economics'],
  [/\b(?:english|literature|essay writing)\b/i, 'English'],
  [/\bfrench\b/i, 'French'],
  [/\bspanish\b/i, 'Spanish'],
  [/\bgerman\b/i, 'German'],
  [/\blatin\b/i, 'Latin'],
  [/\b(?:computer science|programming|coding)\b/i, 'computer science'],
];

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const DATE_RE = new RegExp(
  `\\b(\\d{1,2})(?:st|nd|rd|th)? (${MONTHS.join('|')}),? (\\d{4})\\b|\\b(${MONTHS.join('|')}) (\\d{1,2})(?:st|nd|rd|th)?,? (\\d{4})\\b|\\b(\\d{4})-(\\d{2})-(\\d{2})\\b`,
  'i',
);

/** `12 June 2025`, `June 12, 2025` or `2025-06-12` → `2025-06-12`; null when the text names no full date. */
export function isoDateIn(text: string): string | null {
  const m = DATE_RE.exec(text);
  if (!m) return null;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (m[1]) return `${m[3]}-${pad(MONTHS.indexOf(m[2].toLowerCase()) + 1)}-${pad(Number(m[1]))}`;
  if (m[4]) return `${m[6]}-${pad(MONTHS.indexOf(m[4].toLowerCase()) + 1)}-${pad(Number(m[5]))}`;
  return `${m[7]}-${m[8]}-${m[9]}`;
}

/** A clause after the subject: "The user …" / "Maya …" are both accepted, the subject is not interpreted. */
type Rule = {
  field: Exclude<StudentProfileField, 'subjects' | 'exam_dates'>;
  re: RegExp;
  value?: (m: RegExpExecArray) => string;
  /** Only when the value names a school subject (for verbs as broad as "enjoys"). */
  subjectOnly?: boolean;
};

const namesSubject = (text: string) => SUBJECTS.some(([re]) => re.test(text));

const RULES: Rule[] = [
  { field: 'level', re: /\b(?:is|am) in (?:the )?((?:\d{1,2}(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth) grade|grade \d{1,2}|year \d{1,2}|(?:middle|high|primary|elementary|secondary) school|college|university)\b/i },
  { field: 'level', re: /\b(?:is|am) an? ((?:high school|middle school|college|university|undergraduate|graduate|phd|master'?s|first-year|second-year|third-year|final-year) (?:student|freshman|sophomore|junior|senior)|freshman|sophomore|(?:high school )?(?:junior|senior)|undergraduate|beginner|intermediate learner|advanced learner)\b/i },
  { field: 'level', re: /\bis at (?:an? )?(beginner|intermediate|advanced) level\b/i },
  { field: 'learning_goals', re: /\b(?:wants to|would like to|hopes to|plans to|aims to|is aiming to|is trying to|needs to pass|goal is to|is preparing for|is studying for|is aiming for)\s+(.+)/i, value: (m) => m[0].replace(/^(?:is )?/i, '') },
  { field: 'strengths', re: /\b(?:is (?:really |very )?good at|is (?:really |very )?great at|is strong (?:at|in)|excels (?:at|in)|is confident (?:with|in|at))\s+(.+)/i },
  { field: 'strengths', re: /\b(?:enjoys|loves|likes)\s+(.+)/i, subjectOnly: true },
  { field: 'strengths', re: /\bfinds (.+?) easy\b/i },
  { field: 'struggles', re: /\b(?:struggles with|struggled with|has (?:a hard time|trouble|difficulty|difficulties|problems) with|is (?:bad|weak|not good) (?:at|in)|gets confused by|is confused by|gets stuck on|does ?n[o']t understand|keeps failing)\s+(.+)/i },
  { field: 'struggles', re: /\bfinds (.+?) (?:hard|difficult|confusing|challenging|tricky)\b/i },
  { field: 'misconceptions', re: /\b(?:thinks|believes|thought|believed|assumes) that (.+)/i, value: (m) => `thinks that ${m[1]}` },
  { field: 'misconceptions', re: /\b(?:confuses|mixes up|mixed up|confused) (.+?)(?: with| and) (.+)/i, value: (m) => `confuses ${m[1]} with ${m[2]}` },
  { field: 'learning_style', re: /\bis an? (visual|auditory|kinesthetic|hands-on|reading\/writing) learner\b/i, value: (m) => `${m[1]} learner` },
  { field: 'learning_style', re: /\blearns (?:best|better|most easily) (.+)/i, value: (m) => m[0] },
  { field: 'learning_style', re: /\b(?:prefers|likes|wants|needs) ((?:visual|worked|real-world|concrete|step-by-step|short|simple|detailed) (?:examples|explanations|diagrams|problems)|diagrams|videos|examples|practice problems|flashcards|analogies|quizzes)\b(.*)/i, value: (m) => `${m[1]}${m[2]}` },
  { field: 'pace', re: /\b(?:prefers|likes|wants|needs) (?:to (?:go|move|work|learn|take (?:it|things)) )?((?:very |more )?(?:slowly|slow|quickly|fast)|step by step|one step at a time|at (?:a|his|her|their|own) [\w ]*pace|more time)\b/i },
  { field: 'pace', re: /\b(?:works|learns|reads) (slowly|quickly|fast|at (?:a|his|her|their|own) [\w ]*pace)\b/i },
  { field: 'accommodations', re: /\b(?:has|is diagnosed with|was diagnosed with|lives with) (dyslexia|dyscalculia|dysgraphia|adhd|add|autism|an? (?:hearing|visual|vision) impairment|anxiety|test anxiety)\b/i },
  { field: 'accommodations', re: /\b(?:gets|needs|receives|has|is allowed|uses) ((?:extra|additional) time|a reader|a scribe|large print|text-to-speech|frequent breaks|an? (?:iep|504 plan)|[\w ]*accommodations?)\b(.*)/i, value: (m) => `${m[1]}${m[2]}` },
];

const EXAM_RE = /\b(?:has|is taking|will take|takes|is sitting|will sit|is preparing for|is studying for) (?:an?|the|his|her|their|my)? ?([\w' -]*?\b(?:exams?|tests?|quiz(?:zes)?|midterms?|finals?|SAT|ACT|GCSEs?|A-levels?))\b(.*)/i;

const clean = (s: string) =>
  s
    .replace(/\s+/g, ' ')
    .replace(/[.!?;:,\s]+$/, '')
    .trim();

/** The structured profile of one user's memories (pure; the endpoint and retrieve both use it). */
export function buildStudentProfile(
  externalUserId: string,
  memories: readonly ProfileMemory[],
  now: Date = new Date(),
): StudentProfile {
  const newestFirst = [...memories].sort((a, b) => new Date(b.created_at).getTime() - new Date(a.created_at).getTime());
  const fields = new Map<string, Map<string, ProfileEntry & { date?: string | null }>>();
  const add = (field: StudentProfileField, value: string, m: ProfileMemory, extra?: { date: string | null }) => {
    const v = clean(value);
    if (!v || v.length > 160) return;
    let entries = fields.get(field);
    if (!entries) fields.set(field, (entries = new Map()));
    const key = v.toLowerCase();
    let entry = entries.get(key);
    if (!entry) entries.set(key, (entry = { value: v, memory_ids: [], source_event_ids: [], ...extra }));
    if (!entry.memory_ids.includes(m.id)) entry.memory_ids.push(m.id);
    if (m.source_event_id && !entry.source_event_ids.includes(m.source_event_id)) entry.source_event_ids.push(m.source_event_id);
  };

  for (const m of newestFirst) {
    const text = m.content.replace(/\s+/g, ' ');
    for (const rule of RULES) {
      const match = rule.re.exec(text);
      if (match && (!rule.subjectOnly || namesSubject(match[1]))) add(rule.field, rule.value ? rule.value(match) : match[1], m);
    }
    const exam = EXAM_RE.exec(text);
    if (exam) add('exam_dates', `${exam[1]}${exam[2]}`.replace(/^(?:my|his|her|their) /i, ''), m, { date: isoDateIn(text) });
    for (const [re, name] of SUBJECTS) if (re.test(text)) add('subjects', name, m);
  }

  const list = (field: StudentProfileField) => [...(fields.get(field)?.values() ?? [])];
  return {
    external_user_id: externalUserId,
    level: list('level'),
    subjects: list('subjects'),
    learning_goals: list('learning_goals'),
    strengths: list('strengths'),
    struggles: list('struggles'),
    misconceptions: list('misconceptions'),
    learning_style: list('learning_style'),
    pace: list('pace'),
    accommodations: list('accommodations'),
    exam_dates: list('exam_dates')
      .map((e) => ({ ...e, date: e.date ?? null }))
      .sort((a, b) => (a.date ?? '9999').localeCompare(b.date ?? '9999')),
    memory_count: memories.length,
    generated_at: now.toISOString(),
  };
}

/** The user's active memories with what the profile needs. */
async function loadProfileMemories(db: Db, tenantId: string, userId: string): Promise<ProfileMemory[]> {
  return rows<ProfileMemory>(
    db,
    sql`SELECT id, content, source_event_id, created_at FROM memories
        WHERE tenant_id = ${tenantId} AND user_id = ${userId} AND status = 'active'`,
  );
}

/**
 * GET /v1/memories/edtech-profile. 409 `conflict` when the tenant's schema is not `edtech` (the resource
 * exists, the tenant's state does not allow it; the problem names the PATCH that enables it); 404 for a
 * user the tenant never sent.
 */
export async function getStudentProfile(db: Db, tenantId: string, externalUserId: string, now = new Date()): Promise<StudentProfile> {
  const schema = await tenantDomainSchema(db, tenantId);
  if (schema !== 'edtech') throw edtechNotEnabled(schema);
  const user = await findUser(db, tenantId, externalUserId);
  if (!user) throw Errors.notFound('The user');
  return buildStudentProfile(externalUserId, await loadProfileMemories(db, tenantId, user.id), now);
}

const edtechNotEnabled = (schema: string) =>
  Errors.conflict(
    `The EdTech schema is not enabled for this tenant (its domain schema is \`${schema}\`). ` +
      'Enable it with PATCH /v1/tenant/domain-schema {"domain_schema":"edtech"}.',
  );

/** Section lines in priority order (kept longest when the budget is short), at most this many values each. */
const SECTION_FIELDS: Array<[Exclude<StudentProfileField, 'subjects'> | 'subjects', string]> = [
  ['level', 'Level'],
  ['struggles', 'Struggles'],
  ['misconceptions', 'Misconceptions'],
  ['exam_dates', 'Exams'],
  ['learning_goals', 'Goals'],
  ['accommodations', 'Accommodations'],
  ['learning_style', 'Learning style'],
  ['pace', 'Pace'],
  ['strengths', 'Strengths'],
  ['subjects', 'Subjects'],
];
export const SECTION_VALUES_MAX = 3;

/** Retrieve's "Learner profile" section (retrieval/domain-section.ts) from a profile; empty fields are left out. */
export function learnerSection(profile: StudentProfile): DomainSection {
  const lines = SECTION_FIELDS.flatMap(([key, label]) => {
    const values = profile[key].slice(0, key === 'level' ? 1 : SECTION_VALUES_MAX).map((e) => e.value);
    return values.length > 0 ? [{ key, label, values }] : [];
  });
  return { heading: 'Learner profile:', element: 'learner_profile', lines };
}

registerDomainSection('edtech', {
  build: (externalUserId, rows, now) => learnerSection(buildStudentProfile(externalUserId, rows, now)),
});
