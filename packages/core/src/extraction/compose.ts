/**
 * The compositional pass: after extraction, read the memories for the entities they mention (people,
 * places, organisations and other proper names, via compromise) and the relationships they state, so the
 * store can link each memory to its entities (`memory_entities`) and keep an entity graph per user
 * (`entities`, `entity_relationships`). Runs for every provider; its counts go to the job's
 * `extraction_metadata.compositional_*`.
 *
 * Relationship patterns (subject = the memory's subject: the speaker's name or "the user"):
 *
 * | pattern in the memory                                  | relationship                          |
 * |--------------------------------------------------------|---------------------------------------|
 * | "<X>'s <relation> <Name>" (sister, husband, friend, …) | Name —<relation>_of→ X                |
 * | "<subject> lives/moved/relocated in/to <Place>"        | subject —lives_in→ Place              |
 * | "<subject> works/worked at/for <Org>"                  | subject —works_at→ Org                |
 * | "<subject> is/was/comes from <Place>"                  | subject —from→ Place                  |
 * | two people named in one memory (not the above)         | subject —mentions→ other person       |
 */
import nlp from 'compromise';
import type { ComposedEntity, ComposedRelationship, Composition, EntityKind, ExtractedMemory } from './types';

export type { ComposedEntity, ComposedRelationship, Composition, EntityKind };


export const USER_ENTITY = 'the user';

const RELATIONS =
  'sister|brother|mother|mom|mum|father|dad|wife|husband|partner|son|daughter|friend|best friend|boss|colleague|coworker|cousin|aunt|uncle|grandmother|grandma|grandfather|grandpa|girlfriend|boyfriend|fiancé|fiancee|fiance|niece|nephew|roommate|neighbor|neighbour|mentor|dog|cat|puppy|kitten';
const RELATION_RE = new RegExp(String.raw`\b([A-Z][\p{L}-]+|[Tt]he user)'s (${RELATIONS}),? ([A-Z][\p{L}-]+)`, 'gu');
const CALENDAR = /^(?:january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|yesterday|tomorrow|christmas|easter)$/i;
const NOT_ENTITY = /^(?:i|the user|user|we|you|he|she|they|it|wow|hey|hi|thanks|yeah|yes|oh|omg|lol|ok|okay|aww|congrats|lgbtq)$/i;

export function normalizeEntity(name: string): string {
  return name.toLowerCase().replace(/\s+/g, ' ').trim();
}

function cleanName(raw: string): string {
  return raw
    .replace(/['’]s\b/g, '')
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')
    .replace(new RegExp(String.raw`^(?:${RELATIONS})\s+`, 'i'), '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A leading time phrase that withTime() in builtin.ts puts before the subject ("On 7 May 2023, Caroline …"). */
const LEADING_TIME = /^(?:on|in|around|the (?:week|weekend)|a few days|yesterday|today|last|this|recently|lately|\d+|one|two|three|a couple)\b[^,]*,\s*/i;

/** The memory's subject: the name it starts with (after a leading time phrase), or the user. */
function subjectOf(content: string): string {
  const rest = content.replace(LEADING_TIME, '');
  if (/^the user\b/i.test(rest)) return USER_ENTITY;
  const name = /^([A-Z][\p{L}-]+)\b/u.exec(rest);
  return name ? name[1] : USER_ENTITY;
}

export function composeMemories(memories: Pick<ExtractedMemory, 'content'>[]): Composition {
  const entities = new Map<string, ComposedEntity>();
  const relationships = new Map<string, ComposedRelationship>();
  const addEntity = (rawName: string, kind: EntityKind, memoryIndex: number): string | null => {
    const name = rawName === USER_ENTITY ? USER_ENTITY : cleanName(rawName);
    if (name !== USER_ENTITY && /\s(?!(?:of|the|de|da|do|and|&|van|von)\s)[a-z]/.test(name)) return null;
    if (!name || name.length < 2 || (name !== USER_ENTITY && NOT_ENTITY.test(name)) || CALENDAR.test(name) || /^\d/.test(name)) return null;
    const key = normalizeEntity(name);
    let e = entities.get(key);
    if (!e) {
      e = { name, normalized: key, kind, memoryIndices: [] };
      entities.set(key, e);
    } else if (e.kind === 'thing' && kind !== 'thing') e.kind = kind;
    if (!e.memoryIndices.includes(memoryIndex)) e.memoryIndices.push(memoryIndex);
    return key;
  };
  const relate = (subject: string | null, predicate: string, object: string | null, memoryIndex: number) => {
    if (!subject || !object || subject === object) return;
    const key = `${subject}\u0000${predicate}\u0000${object}`;
    if (!relationships.has(key)) relationships.set(key, { subject, predicate, object, memoryIndex });
  };

  memories.forEach((memory, i) => {
    const text = memory.content;
    const doc = nlp(text);
    const subjectName = subjectOf(text);
    let subject = addEntity(subjectName, 'person', i);
    const people = (doc.people().out('array') as string[]).map((p) => addEntity(p, 'person', i)).filter((p): p is string => p !== null);
    for (const p of doc.places().out('array') as string[]) addEntity(p, 'place', i);
    for (const o of doc.organizations().out('array') as string[]) addEntity(o, 'organization', i);
    for (const p of doc.match('#ProperNoun+').out('array') as string[]) addEntity(p, 'thing', i);

    let stated = false;
    for (const m of text.matchAll(RELATION_RE)) {
      const owner = /^the user$/i.test(m[1]) ? USER_ENTITY : addEntity(m[1], 'person', i);
      const kin = addEntity(m[3], m[2] === 'dog' || m[2] === 'cat' || m[2] === 'puppy' || m[2] === 'kitten' ? 'thing' : 'person', i);
      relate(kin, `${m[2].replace(/\s+/g, '_')}_of`, owner, i);
      // "Caroline's sister Ana lives in Porto": Ana is who the rest of the sentence is about
      if (m.index === text.length - text.replace(LEADING_TIME, '').length) subject = kin;
      stated = true;
    }
    const lives = /\b(?:lives|lived|is living|moved|has moved|relocated|is moving|will be moving)\s+(?:back\s+)?(?:in|to)\s+([A-Z][\p{L}-]+(?: [A-Z][\p{L}-]+)*)/u.exec(text);
    if (lives) {
      relate(subject, 'lives_in', addEntity(lives[1], 'place', i), i);
      stated = true;
    }
    const works = /\b(?:works|worked|is working|has worked)\s+(?:at|for)\s+([A-Z][\p{L}&.-]+(?: [A-Z][\p{L}&.-]+)*)/u.exec(text);
    if (works) {
      relate(subject, 'works_at', addEntity(works[1], 'organization', i), i);
      stated = true;
    }
    const from = /\b(?:is|was|comes|came) from\s+([A-Z][\p{L}-]+(?: [A-Z][\p{L}-]+)*)/u.exec(text);
    if (from) {
      relate(subject, 'from', addEntity(from[1], 'place', i), i);
      stated = true;
    }
    if (!stated) for (const p of people) relate(subject, 'mentions', p, i);
  });
  return { entities: [...entities.values()], relationships: [...relationships.values()] };
}
