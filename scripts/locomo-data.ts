/**
 * LoCoMo data (../shared/bench/locomo/README.md): sessions, turns, dates and the README's evidence cleaning,
 * shared by `npm run bench:locomo` (HTTP) and `scripts/eval-extraction.ts` (in process).
 */

export interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}
export interface QA {
  question: string;
  answer?: unknown;
  evidence: string[];
  category: number;
}
export interface Sample {
  sample_id: string;
  conversation: Record<string, unknown> & { speaker_a: string; speaker_b: string };
  qa: QA[];
}
export interface Session {
  n: number;
  date: Date;
  turns: Turn[];
}
export interface Question {
  sample: string;
  question: string;
  category: number;
  evidence: string[];
}

export const CATEGORY_NAMES: Record<number, string> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
};

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "1:56 pm on 8 May, 2023" -> a UTC date (the data has no time zone; UTC keeps runs reproducible). */
export function parseSessionDate(s: string): Date {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(s);
  if (!m) throw new Error(`unparseable session date: ${s}`);
  let hour = Number(m[1]) % 12;
  if (m[3].toLowerCase() === 'pm') hour += 12;
  const month = MONTHS.indexOf(m[5].toLowerCase());
  if (month < 0) throw new Error(`unknown month in session date: ${s}`);
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2])));
}

export function sessionsOf(sample: Sample): Session[] {
  const out: Session[] = [];
  for (const key of Object.keys(sample.conversation)) {
    const m = /^session_(\d+)$/.exec(key);
    if (!m) continue;
    const turns = sample.conversation[key] as Turn[];
    if (!Array.isArray(turns) || turns.length === 0) continue;
    const date = sample.conversation[`${key}_date_time`];
    if (typeof date !== 'string') throw new Error(`${sample.sample_id} ${key} has no date`);
    out.push({ n: Number(m[1]), date: parseSessionDate(date), turns });
  }
  return out.sort((a, b) => a.n - b.n);
}

/** The README's cleaning: split on [;\s]+, parse D<s>:<t> (leading zeros dropped), keep ids that exist. */
export function cleanEvidence(raw: string[], known: Set<string>): string[] {
  const out = new Set<string>();
  for (const item of raw) {
    for (const piece of String(item).split(/[;\s]+/)) {
      const m = /^D(\d+):0*(\d+)$/.exec(piece.trim());
      if (!m) continue;
      const id = `D${Number(m[1])}:${Number(m[2])}`;
      if (known.has(id)) out.add(id);
    }
  }
  return [...out];
}

export function turnText(t: Turn): string {
  const caption = t.blip_caption?.trim();
  return caption ? `${t.text} [shares a photo: ${caption}]` : t.text;
}

/** The questions with a usable (cleaned, non-empty) evidence list, and how many were left out. */
export function locomoQuestions(samples: Sample[], sessionsBySample: Map<string, Session[]>): { questions: Question[]; skippedNoEvidence: number } {
  const questions: Question[] = [];
  let skippedNoEvidence = 0;
  for (const sample of samples) {
    const known = new Set((sessionsBySample.get(sample.sample_id) ?? []).flatMap((s) => s.turns.map((t) => t.dia_id)));
    for (const qa of sample.qa) {
      const evidence = cleanEvidence(qa.evidence ?? [], known);
      if (evidence.length === 0) {
        skippedNoEvidence++;
        continue;
      }
      questions.push({ sample: sample.sample_id, question: qa.question, category: qa.category, evidence });
    }
  }
  return { questions, skippedNoEvidence };
}
