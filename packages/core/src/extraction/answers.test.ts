import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../messages';
import { aboutUser, ellipticFollowUp, isShortAnswer, questionAboutUser } from './answers';
import { extractMemories } from './builtin';

const observedAt = new Date('2023-05-21T19:50:00Z');
const user = (content: string): ConversationMessage => ({ role: 'user', content });
const assistant = (content: string): ConversationMessage => ({ role: 'assistant', content });
const run = (...messages: ConversationMessage[]) => extractMemories({ messages, observedAt });

describe('short answers keep the question they answer', () => {
  it('a fragment answering a question about the user', () => {
    const r = run(assistant("Happy to help with training tips! What breed is your dog?"), user('A golden retriever.'));
    expect(r.memories.map((m) => [m.content, m.messageIndices])).toEqual([
      ['Asked "What breed is the user\'s dog?", the user answered: A golden retriever.', [1]],
    ]);
  });

  it('the question is rewritten about the user, with its verb agreeing', () => {
    expect(run(assistant('How many hours do you usually sleep?'), user('About six, sometimes less.')).memories[0].content).toBe(
      'Asked "How many hours does the user usually sleep?", the user answered: About six, sometimes less.',
    );
    expect(run(assistant('Which city are you moving to?'), user('Probably Rotterdam.')).memories[0].content).toBe(
      'Asked "Which city is the user moving to?", the user answered: Probably Rotterdam.',
    );
  });

  it('a bare yes or no answers a yes/no question about the user', () => {
    expect(run(assistant('Do you have any food allergies?'), user('No.')).memories.map((m) => m.content)).toEqual([
      'Asked "Does the user have any food allergies?", the user answered: No.',
    ]);
  });

  it('no answer memory for offers, thanks, questions back, or messages that already say something', () => {
    expect(run(assistant('Would you like more ideas?'), user('Yes please.')).memories).toEqual([]);
    expect(run(assistant('What breed is your dog?'), user('Thanks, that helps!')).memories).toEqual([]);
    expect(run(assistant('What breed is your dog?'), user('Why do you ask?')).memories).toEqual([]);
    expect(run(assistant('What is the capital of Peru?'), user('Lima.')).memories).toEqual([]);
    expect(run(assistant('Do you have any pets?'), user('I have a beagle called Moss.')).memories.map((m) => m.content)).toEqual([
      'The user has a beagle called Moss.',
    ]);
  });
});

describe('a short follow-up asks about what the user just said', () => {
  it('keeps the answer with the follow-up', () => {
    const r = run(user('We keep bees in the garden behind the house.'), assistant('Lovely! Any honey yet?'), user('Yes, 14 jars this summer.'));
    expect(r.memories.map((m) => [m.content, m.messageIndices])).toContainEqual([
      'Asked "Any honey yet?", the user answered: Yes, 14 jars this summer.',
      [2],
    ]);
    expect(run(user('I took up rowing.'), assistant('Nice. How often?'), user('Twice a week, on the canal.')).memories.map((m) => m.content)).toContain(
      'Asked "How often?", the user answered: Twice a week, on the canal.',
    );
  });

  it('not without the user speaking first, nor for a question with a verb, a person or an offer', () => {
    expect(run(assistant('Any honey yet?'), user('Yes, 14 jars.')).memories).toEqual([]);
    expect(run(user('I like quizzes.'), assistant('What is the capital of Peru?'), user('Lima, probably.')).memories.map((m) => m.content)).toEqual([
      'The user likes quizzes.',
    ]);
    expect(run(user('My sister keeps bees.'), assistant('How many hives has she?'), user('Four, I think.')).memories.map((m) => m.content)).toEqual([
      "The user's sister keeps bees.",
    ]);
    expect(run(user('I finished the course.'), assistant('Great. Any other questions?'), user('Not really.')).memories.map((m) => m.content)).toEqual([
      'The user finished the course.',
    ]);
  });

  it('ellipticFollowUp', () => {
    for (const q of ['Any honey yet?', 'Which breed?', 'How far?', 'Since when?', 'What kind exactly?']) expect(ellipticFollowUp(q)).toBe(true);
    for (const q of ['Why?', 'What is it called?', 'How was it?', 'Any more tips needed?', 'What else?', 'How about a walk?', 'How about "Accord"?'])
      expect(ellipticFollowUp(q)).toBe(false);
  });
});

describe('answers.ts helpers', () => {
  it('aboutUser', () => {
    expect(aboutUser('Have you tried yoga before?')).toBe('Has the user tried yoga before?');
    expect(aboutUser("What's your budget?")).toBe("What's the user's budget?");
  });

  it('questionAboutUser takes the last question when it ends the message', () => {
    expect(questionAboutUser('Great. What do you cook most?', ['What do you cook most?'])).toBe('What do you cook most?');
    expect(questionAboutUser('Does that help? Let me know.', ['Does that help?'])).toBeNull();
  });

  it('isShortAnswer', () => {
    expect(isShortAnswer('Two, a boy and a girl.')).toBe(true);
    expect(isShortAnswer('What do you mean?')).toBe(false);
    expect(isShortAnswer('one two three four five six seven eight nine ten eleven twelve thirteen')).toBe(false);
  });
});
