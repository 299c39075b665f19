import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../messages';
import { type GateOutcome, runQualityGate } from './gate';

const user = (content: string): ConversationMessage => ({ role: 'user', content });
const assistant = (content: string): ConversationMessage => ({ role: 'assistant', content });
const system = (content: string): ConversationMessage => ({ role: 'system', content });
const decide = (...messages: ConversationMessage[]) => runQualityGate(messages);
const decisionOf = (o: GateOutcome) => (o.decision === 'block' ? `block ${o.level} ${o.reason}` : o.decision);
const only = (content: string) => decisionOf(decide(user(content)));

const OPENAI_PROJ = ['sk-', 'proj-', 'Xk9mP2vQ7rT4wY8zA1bC3dE5fG6hJ0kL', '-_nM2pQ4rS6tU8vW0xY2zA4bC6dE8fG0h'].join('');

describe('accept', () => {
  it.each([
    "I'm vegetarian, what should I cook?",
    'I ran 42 km last weekend, my knees hurt',
    'We are moving to Berlin next month with the kids.',
    'my order 1234567890123 still has not arrived',
    'call me at +351 912 345 678 after 6pm, I work until then',
    'my flight is TP1234 on Friday',
    'The meeting with Acme moved to Friday.',
    'hi! my daughter starts school in September, any tips?',
    'thanks! btw I prefer metric units',
    'Eu sou vegetariano, o que devo cozinhar?',
    'Je suis végétarien depuis dix ans',
    'Ich wohne in Hamburg',
    '我是素食者',
    'the fix is in commit da39a3ee5e6b4b0d3255bfef95601890afd80709, my team reviewed it',
  ])('%s', (text) => {
    expect(only(text)).toBe('accept');
  });

  it('accepts when any user turn has a disclosure, even after filler turns', () => {
    const out = decide(
      user('hi'),
      assistant('Hello! How can I help?'),
      user('can you suggest a dinner?'),
      assistant('Sure, what do you like?'),
      user('I love spicy food but I am allergic to peanuts'),
    );
    expect(out.decision).toBe('accept');
  });

  it('treats short answers to assistant questions as disclosures', () => {
    expect(decisionOf(decide(assistant('Are you vegetarian?'), user('yes')))).toBe('accept');
    expect(decisionOf(decide(assistant('How old are you?'), user('34')))).toBe('accept');
    expect(decisionOf(decide(assistant('Which city do you live in?'), user('Lisbon')))).toBe('accept');
    expect(decisionOf(decide(system('be brief'), assistant('Do you drink coffee?'), user('never')))).toBe('accept');
  });

  it('returns redacted copies of every message, all roles', () => {
    const out = decide(
      system('You are a helpful assistant.'),
      user('my card is 4111 1111 1111 1111 and I live in Porto'),
      assistant(`Noted. Never share keys like ${OPENAI_PROJ}.`),
    );
    expect(out.decision).toBe('accept');
    if (out.decision !== 'accept') return;
    expect(out.nothingToExtract).toBe(false);
    expect(out.messages).toEqual([
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: 'my card is [REDACTED:card_number] and I live in Porto' },
      { role: 'assistant', content: 'Noted. Never share keys like [REDACTED:api_key].' },
    ]);
    expect(out.redactions).toBe(2);
    expect(out.redactedKinds).toEqual({ card_number: 1, api_key: 1 });
  });

  it('does not mutate the input', () => {
    const input = [user('my password is hunter2 and I live in Porto')];
    runQualityGate(input);
    expect(input[0].content).toBe('my password is hunter2 and I live in Porto');
  });
});

describe('nothing_to_extract', () => {
  it.each([
    'hi',
    'Hello!',
    'thanks a lot!',
    'ok cool',
    'Thank you so much, that was really helpful 🙏',
    "what's the weather like?",
    'can you write me a poem about cats?',
    'Good morning! How are you?',
    'hello there, could you translate this to French: good night',
    'Please summarize this article about climate change',
    'tell me a joke',
    'haha nice',
    "I'm good, thanks",
    'ok I see',
    'can I ask you something?',
    'Who won the 2018 World Cup?',
  ])('%s', (text) => {
    const out = decide(user(text));
    expect(decisionOf(out)).toBe('nothing_to_extract');
    if (out.decision === 'nothing_to_extract') {
      expect(out.nothingToExtract).toBe(true);
      expect(out.messages).toEqual([user(text)]);
    }
  });

  it('a filler conversation with assistant turns', () => {
    const out = decide(
      user('hey'),
      assistant('Hi! What can I do for you?'),
      user('what is the capital of Australia?'),
      assistant('Canberra.'),
      user('thanks!'),
    );
    expect(decisionOf(out)).toBe('nothing_to_extract');
  });

  it('junk turns next to a filler turn do not block the conversation', () => {
    expect(decisionOf(decide(user('asdfghjkl'), user('ok thanks')))).toBe('nothing_to_extract');
  });
});

describe('block L2 low_quality', () => {
  it.each([
    ['punctuation only', '!!!???...'],
    ['emoji only', '😀😀👍🔥'],
    ['whitespace only', '   \n\t  '],
    ['keyboard mashing', 'asdfghjkl qwerty'],
    ['more mashing', 'qwertyuiop zxcvbnm jkljkljkl'],
    ['single character repeated', 'aaaaaaaaaaaaaaaa'],
    ['base64 blob', Buffer.from('x'.repeat(20) + ' some payload data that was pasted by mistake').toString('base64')],
    ['long hex blob', 'deadbeef0123456789abcdef0123456789abcdef0123456789abcdef0123456789'],
    ['hex dump', '3f 2a 9c 00 ff d8 e0 10 4a 46 49 46 00 01'],
    ['hex dump with word-like bytes', 'de ad be ef ca fe ba be 00 ff 3c 4a 0d 0a'],
    ['binary junk', 'ÿØÿà\u0000\u0010JFIF\u0000\u0001\u0001\u0000\u0000H\u0000H\u0000\u0000'],
    ['single unknown word, no question before', 'Lisbon'],
    ['consonant soup', 'xkcdqzv prtkls'],
  ])('%s', (_name, text) => {
    expect(only(text)).toBe('block L2 low_quality');
  });

  it('no user turn at all', () => {
    expect(decisionOf(decide(assistant('Hello! How can I help you today?')))).toBe('block L2 low_quality');
    expect(decisionOf(decide(system('You are helpful.'), assistant('Hi')))).toBe('block L2 low_quality');
    expect(decisionOf(decide())).toBe('block L2 low_quality');
  });

  it('block outcomes carry no messages', () => {
    const out = decide(user('!!!'));
    expect(out).toEqual({ decision: 'block', level: 'L2', reason: 'low_quality', redactions: 0, redactedKinds: {} });
    expect('messages' in out).toBe(false);
  });

  it('an answer to a question is still blocked when it is junk', () => {
    expect(decisionOf(decide(assistant('What is your name?'), user('asdfghjkl')))).toBe('block L2 low_quality');
  });
});

describe('block L4 sensitive_content', () => {
  it.each([
    ['an API key', OPENAI_PROJ],
    ['a card number', '4111 1111 1111 1111'],
    ['a password assignment', 'password: hunter2'],
    ['a private key', ['-----BEGIN OPENSSH ', 'PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH ', 'PRIVATE KEY-----'].join('')],
    ['a connection string', 'postgres://app:Sup3rS3cret@db.internal:5432/prod'],
    ['a key with punctuation', `"${OPENAI_PROJ}" !!!`],
  ])('the user only pasted %s', (_name, text) => {
    const out = decide(user(text));
    expect(decisionOf(out)).toBe('block L4 sensitive_content');
    expect(out.redactions).toBe(1);
  });

  it('reports counts and never returns the secret', () => {
    const out = decide(user('4111 1111 1111 1111'), user('5555-5555-5555-4444'));
    expect(out).toEqual({
      decision: 'block',
      level: 'L4',
      reason: 'sensitive_content',
      redactions: 2,
      redactedKinds: { card_number: 2 },
    });
  });

  it('a secret with meaningful text around it is accepted (redacted), not blocked', () => {
    const out = decide(user(`here is my key ${OPENAI_PROJ}, I use it for my side project`));
    expect(out.decision).toBe('accept');
    if (out.decision === 'accept') {
      expect(out.messages[0].content).toBe('here is my key [REDACTED:api_key], I use it for my side project');
    }
  });

  it('secret only in an assistant turn and junk from the user is L2, not L4', () => {
    expect(decisionOf(decide(assistant(`key: ${OPENAI_PROJ}`), user('???')))).toBe('block L2 low_quality');
  });
});

describe('determinism and speed', () => {
  const conversation: ConversationMessage[] = Array.from({ length: 10 }, (_, i) =>
    i % 2 === 0
      ? user("Thanks! By the way, I'm vegetarian and my partner is allergic to nuts. What should we cook tonight?")
      : assistant('Here are a few ideas: a chickpea curry, a mushroom risotto or stuffed peppers. Want a recipe?'),
  );

  it('is deterministic', () => {
    expect(runQualityGate(conversation)).toEqual(runQualityGate(conversation));
  });
});
