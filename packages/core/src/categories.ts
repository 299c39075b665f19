/**
 * The complete list of memory categories (the spec names fact, preference, goal, expertise and
 * describes procedures and relationships; the list is documented in docs/memory-model.md).
 */
export const MEMORY_CATEGORIES = [
  'fact',
  'preference',
  'goal',
  'expertise',
  'relationship',
  'procedure',
  'event',
] as const;

export type MemoryCategory = (typeof MEMORY_CATEGORIES)[number];

/** Plain-words description of each category, for docs, the consent page and the console. */
export const CATEGORY_DESCRIPTIONS: Record<MemoryCategory, string> = {
  fact: 'Facts about the user: where they live, their diet, work, family situation.',
  preference: 'Likes, dislikes and how the user prefers things done.',
  goal: 'What the user is working towards: plans, targets, deadlines.',
  expertise: 'Skills, knowledge and experience the user has.',
  relationship: 'People in the user’s life and how they relate to them.',
  procedure: 'How the user does things: routines, habits, workflows.',
  event: 'Things that happened to the user, with their dates.',
};

/** Short plain-words names of the categories, for the consent page's checkboxes. */
export const CATEGORY_LABELS: Record<MemoryCategory, string> = {
  fact: 'Facts about you',
  preference: 'Your preferences',
  goal: 'Your goals',
  expertise: 'Your skills and knowledge',
  relationship: 'People in your life',
  procedure: 'Your routines and habits',
  event: 'Things that happened to you',
};
