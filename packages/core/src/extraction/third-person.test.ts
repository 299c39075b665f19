import { describe, expect, it } from 'vitest';
import { detectClaim } from '../conflicts/claims';
import { conjugatePredicate, isPreVerbAdverb, rewriteLater, toThirdPerson } from './third-person';

describe('adverbs between "I" and its verb', () => {
  it('a listed adverb or any other "-ly" adverb stays before the verb, which is conjugated', () => {
    expect(conjugatePredicate('eventually want to paddle the coast', false)).toBe('eventually wants to paddle the coast');
    expect(conjugatePredicate('gradually save for a boat', false)).toBe('gradually saves for a boat');
    expect(toThirdPerson('I simply love my garden.')).toBe("The user simply loves the user's garden.");
  });

  it('a verb that ends in "-ly" is the verb', () => {
    for (const verb of ['apply', 'reply', 'supply', 'rely', 'multiply', 'comply']) expect(isPreVerbAdverb(verb)).toBe(false);
    expect(conjugatePredicate('rely on my sister', false)).toBe('relies on my sister');
    expect(conjugatePredicate('apply sunscreen twice a day', false)).toBe('applies sunscreen twice a day');
    expect(isPreVerbAdverb('eventually')).toBe(true);
    expect(isPreVerbAdverb('usually')).toBe(true);
  });

  it('later in the clause, "I" with up to two adverbs before its verb', () => {
    expect(rewriteLater('My wife says that I always forget my keys', false)).toBe("the user's wife says that the user always forgets the user's keys");
    expect(rewriteLater('I will remember that when I eventually get a truck', false)).toContain('when the user eventually gets a truck');
    expect(rewriteLater('whenever I just really need a break', false)).toBe('whenever the user just really needs a break');
    expect(rewriteLater('because I apply for jobs', false)).toBe('because the user applies for jobs');
  });
});

describe('"no longer" before the verb', () => {
  it('stays before it, and the verb is conjugated, so the statement is an ended claim', () => {
    expect(conjugatePredicate('no longer work at Google', false)).toBe('no longer works at Google');
    expect(toThirdPerson('I no longer live in Paris.')).toBe('The user no longer lives in Paris.');
    expect(detectClaim('The user no longer lives in Paris.')).toMatchObject({ subject: 'residence', value: 'paris', negated: true });
  });
});

describe('irregular past forms stay as said', () => {
  it('the simple past of an irregular verb is not conjugated as a present', () => {
    expect(toThirdPerson('I drew a map of the old harbour.')).toBe('The user drew a map of the old harbour.');
    expect(toThirdPerson('I shot a short film about my grandmother.')).toBe("The user shot a short film about the user's grandmother.");
    expect(toThirdPerson('I dug a pond behind the shed.')).toBe('The user dug a pond behind the shed.');
    expect(toThirdPerson('I strove to finish the quilt.')).toBe('The user strove to finish the quilt.');
  });

  it('a prefixed irregular verb has the same past', () => {
    expect(toThirdPerson('I retook the driving test in May.')).toBe('The user retook the driving test in May.');
    expect(toThirdPerson('I overslept twice this week.')).toBe('The user overslept twice this week.');
    expect(toThirdPerson('I withdrew my application.')).toBe("The user withdrew the user's application.");
    // a present verb that only starts like a prefix is still conjugated
    expect(toThirdPerson('I repair old radios.')).toBe('The user repairs old radios.');
    expect(toThirdPerson('I understand Portuguese.')).toBe('The user understands Portuguese.');
    expect(toThirdPerson('I resent the new parking rules.')).toBe('The user resents the new parking rules.');
  });

  it('a past form that is also a common base verb is conjugated unless a past marker is present', () => {
    expect(conjugatePredicate('lay the table for dinner', false)).toBe('lays the table for dinner');
    expect(conjugatePredicate('lay on the beach all afternoon', true)).toBe('lay on the beach all afternoon');
  });
});

describe('spoken forms and more adverbs after "I"', () => {
  it('"wanna", "gotta", "gonna" and a bare "been" are said in full', () => {
    expect(toThirdPerson('I wanna learn the accordion.')).toBe('The user wants to learn the accordion.');
    expect(toThirdPerson('I gotta renew my passport.')).toBe("The user has to renew the user's passport.");
    expect(toThirdPerson('I gonna paint the fence.')).toBe('The user is going to paint the fence.');
    expect(toThirdPerson('I just been busy with the garden.')).toBe('The user has just been busy with the garden.');
  });

  it('"ever", "once", "almost" and "sure" stay before the verb, which is conjugated', () => {
    expect(rewriteLater('if I ever get a boat', false)).toBe('if the user ever gets a boat');
    expect(toThirdPerson('I once won a pie contest.')).toBe('The user once won a pie contest.');
    expect(toThirdPerson('I almost forgot the keys.')).toBe('The user almost forgot the keys.');
    expect(toThirdPerson('I sure hope the rain stops.')).toBe('The user sure hopes the rain stops.');
    // "I sure with …" is "I'm sure with …" mistyped: no verb to conjugate
    expect(conjugatePredicate('sure with your help we can do it', false)).toBe('sure with your help we can do it');
  });
});

describe('a verb that ends the clause', () => {
  it('is conjugated with its punctuation kept after it', () => {
    expect(rewriteLater('It is the best part, doing what I love.', false)).toBe('It is the best part, doing what the user loves.');
    expect(rewriteLater('that is why I keep baking what I bake!', false)).toBe('that is why the user keeps baking what the user bakes!');
  });
});

describe('"we", "us" and "our" after a subject the user shares', () => {
  it('are the pair the subject names', () => {
    expect(toThirdPerson('My wife Sarah and I keep bees in our garden.')).toBe("The user's wife Sarah and the user keep bees in their garden.");
    expect(toThirdPerson('Me and Tomas painted our boat before we sailed it.')).toBe('The user and Tomas painted their boat before they sailed it.');
    expect(rewriteLater("my brother and I think we've outgrown our flat", false)).toBe("the user's brother and the user think they have outgrown their flat");
  });

  it('not before that subject, nor when the user is the only subject', () => {
    expect(rewriteLater('our neighbour says my brother and I are loud', false)).toBe("our neighbour says the user's brother and the user are loud");
    expect(toThirdPerson('I love our home.')).toBe('The user loves our home.');
    expect(toThirdPerson('I told my wife and she agreed.')).toBe("The user told the user's wife and she agreed.");
  });
});
