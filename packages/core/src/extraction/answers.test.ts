import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../messages';
import { aboutUser, isShortAnswer, questionAboutUser } from './answers';
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
