import { describe, expect, it } from 'vitest';
import { toAddressee } from './addressee';

describe('toAddressee: "you" as a subject', () => {
  it.each([
    ['If you need a lift to the station, call me.', 'If Ines needs a lift to the station, call me.'],
    ['I love how you arrange the flowers and choose the colours.', 'I love how Ines arranges the flowers and chooses the colours.'],
    ['It pays off when you finally see the harvest', 'It pays off when Ines finally sees the harvest'],
    ['You really know your way around a kitchen.', "Ines really knows Ines's way around a kitchen."],
    ["I'm glad you enjoy the new bakery", "I'm glad Ines enjoys the new bakery"],
    ["When you don't stretch, your back hurts", "When Ines does not stretch, Ines's back hurts"],
    ['I know what you mean', 'I know what Ines means'],
    ['Tomas can lend you the tent if you want.', 'Tomas can lend Ines the tent if Ines wants.'],
    ['Tomas bets you sleep better in the new flat', 'Tomas bets Ines sleeps better in the new flat'],
  ])('%s', (text, expected) => {
    expect(toAddressee(text, 'Ines')).toBe(expected);
  });

  it.each([
    // an object, a filler, a modal, a past, an "-ing" form, "you guys"
    ['I told you the shop closes early', 'I told Ines the shop closes early'],
    ['It was, you know, a long day.', 'It was, Ines know, a long day.'],
    ['If you can bring the salad, great', 'If Ines can bring the salad, great'],
    ['I heard that you moved to Graz', 'I heard that Ines moved to Graz'],
    ['How you doing?', 'How Ines doing?'],
    ['I hope you guys have fun in Graz', 'I hope Ines guys have fun in Graz'],
    ['What you up to?', 'What Ines up to?'],
    ['I know you well', 'I know Ines well'],
    ['Honestly, you I trust more than anyone', 'Honestly, Ines I trust more than anyone'],
  ])('leaves the verb of "%s" as said', (text, expected) => {
    expect(toAddressee(text, 'Ines')).toBe(expected);
  });
});
