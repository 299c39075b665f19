import { describe, expect, it } from 'vitest';
import { toAddressee } from './addressee';

describe('toAddressee: the fillers "you know" and "you see"', () => {
  it.each([
    ['You know, I put so much effort into it', 'I put so much effort into it'],
    ['It was, you know, a long day.', 'It was a long day.'],
    ["It's hard with the weather, you know.", "It's hard with the weather."],
    ['It takes time, you know?', 'It takes time.'],
    ['Great news. You see, the shop reopened', 'Great news. The shop reopened'],
  ])('%s', (text, expected) => {
    expect(toAddressee(text, 'Ines')).toBe(expected);
  });

  it.each([
    ['You know the trail better than me', 'Ines knows the trail better than me'],
    ['I wonder if you know the answer', 'I wonder if Ines knows the answer'],
    ['Do you know the owner?', 'Does Ines know the owner?'],
  ])('a "you know" that is said as a verb stays one: %s', (text, expected) => {
    expect(toAddressee(text, 'Ines')).toBe(expected);
  });
});

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
    // a clause after a connective of time or place
    ['Call me before you leave the house', 'Call me before Ines leaves the house'],
    ['Every time you visit, the dog goes wild', 'Every time Ines visits, the dog goes wild'],
    ['Everywhere you go there is a market', 'Everywhere Ines goes there is a market'],
    ['It gets easier as you practice more', 'It gets easier as Ines practices more'],
    // a clause that tells the thing or person before it
    ['It is great to find something you enjoy', 'It is great to find something Ines enjoys'],
    ['All you need is a pair of boots', 'All Ines needs is a pair of boots'],
    ['I admire the people you work with', 'I admire the people Ines works with'],
    ['I wish I could bake bread the way you do', 'I wish I could bake bread the way Ines does'],
    ['Which colours you choose is up to you', 'Which colours Ines chooses is up to Ines'],
    ['Share the recipes you love most', 'Share the recipes Ines loves most'],
    ['It is amazing how much you value your friends', 'It is amazing how much Ines values Ines\'s friends'],
    ['I love the way you really listen', 'I love the way Ines really listens'],
    ['Show them what you know - it works', 'Show them what Ines knows - it works'],
    ['Sounds like you know the trail well', 'Sounds like Ines knows the trail well'],
    ['Take a break - you deserve it', 'Take a break - Ines deserves it'],
  ])('%s', (text, expected) => {
    expect(toAddressee(text, 'Ines')).toBe(expected);
  });

  it.each([
    // an object, a filler, a modal, a past, an "-ing" form, "you guys"
    ['I told you the shop closes early', 'I told Ines the shop closes early'],
    ['The trip made you feel alive', 'The trip made Ines feel alive'],
    ['The kids help you relax after work', 'The kids help Ines relax after work'],
    ['The book I lent you last week', 'The book I lent Ines last week'],
    ['A dog needs the walks you gave it', 'A dog needs the walks Ines gave it'],
    ['The gift for you arrived', 'The gift for Ines arrived'],
    ['Do the stretches you learned', 'Do the stretches Ines learned'],
    ['All the places you can visit', 'All the places Ines can visit'],
    ['I sent the pictures you asked about', 'I sent the pictures Ines asked about'],
    ['The photos you guys took are great', 'The photos Ines and the others took are great'],
    ['If you can bring the salad, great', 'If Ines can bring the salad, great'],
    ['I heard that you moved to Graz', 'I heard that Ines moved to Graz'],
    ['How you doing?', 'How Ines doing?'],
    ['I hope you guys have fun in Graz', 'I hope Ines and the others have fun in Graz'],
    ['You all look so happy', 'Ines and the others look so happy'],
    ["Y'all should come by", 'Ines and the others should come by'],
    ['Great news that you two are getting along', 'Great news that Ines and the other one are getting along'],
    ['Keeping active is great for both of you', 'Keeping active is great for Ines and the other one'],
    ['I wish you all the best with the move', 'I wish Ines all the best with the move'],
    ['Rooting for you all the way', 'Rooting for Ines all the way'],
    ['Wishing you all the luck', 'Wishing Ines all the luck'],
    ['What you up to?', 'What Ines up to?'],
    ['I know you well', 'I know Ines well'],
    ['Honestly, you I trust more than anyone', 'Honestly, Ines I trust more than anyone'],
  ])('leaves the verb of "%s" as said', (text, expected) => {
    expect(toAddressee(text, 'Ines')).toBe(expected);
  });
});
