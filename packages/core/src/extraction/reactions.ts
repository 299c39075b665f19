/**
 * A reaction to what the other speaker said or showed: "Wow, that looks awesome!", "That picture is so cute",
 * "What an amazing view", "Congrats on the new job", "Thanks for the advice", "Glad you liked it". Between two
 * named people most turns carry one beside the news, and reported it becomes a memory of nothing ("Maria said that
 * that picture is so cute"): two thirds of the memories of a conversation between friends were "X said that …",
 * many of them these. The news itself is the other speaker's statement, kept as their memory, and the reaction's
 * words stay retrievable in the evidence layer (the message's passage), so nothing said is lost by not keeping it.
 *
 * Only a named speaker's clause that is not about the speaker reaches this test (clause-analysis.ts): without a
 * name such a clause is already skipped as having no self-reference, and "I love it" is a first-person statement.
 */

/** Interjections and one-word verdicts in front of the reaction ("Wow,", "Oh wow!", "Cool -", "Aww"). */
const OPENERS = /^(?:(?:wow|whoa|woah|aw+|ooh|oh|omg|yay|haha|lol|cool|nice|awesome|amazing|great|sweet|yeah|yes|ah)\b[\s,!.…–—-]*)+/i;

/** Words of praise, sympathy or wonder that a reaction ends on. */
const VERDICT = String.raw`(?:awesome|amazing|great|cute|cool|nice|beautiful|gorgeous|lovely|fun|fantastic|incredible|wonderful|stunning|` +
  String.raw`peaceful|adorable|impressive|inspiring|exciting|sweet|neat|perfect|epic|breathtaking|delicious|brilliant|spectacular|` +
  String.raw`magical|charming|relaxing|tough|scary|rough|awful|terrible|sad|heartbreaking)`;
const INTENSIFIERS = String.raw`(?:(?:so|really|super|very|absolutely|totally|pretty|just|truly|incredibly|such an?|quite|too)\s+)*`;
const LINKING = String.raw`(?:looks?|sounds?|seems?|feels?|is|was|are|were|must(?:['’]ve| have) been|must be|['’]s|['’]re)`;

/**
 * "That looks awesome", "those bowls are so cute", "what an amazing view", "how beautiful", "it must have been
 * scary": a pointing subject of at most five words, a linking verb, and a verdict, with at most three more words
 * (or, after a comma or a dash, another reaction).
 */
const EVALUATION = new RegExp(
  String.raw`^(?:(?:that|this|it|those|these|they)(?:\s+[\w'’-]+){0,4}?\s*${LINKING}\s+${INTENSIFIERS}${VERDICT}|` +
    // the pointing subject left out, as chat does: "Must have been magical", "Must feel great"
    String.raw`must(?:['’]ve| have)? (?:been|be|feel)\s+${INTENSIFIERS}${VERDICT}|` +
    String.raw`(?:what an?|how|such an?)\s+${INTENSIFIERS}${VERDICT})\b(?<rest>.*)$`,
  'i',
);

/**
 * Congratulations, thanks, good wishes and hopes for the other speaker ("Wishing you all the best", "Hope all is
 * well"; not "Hope my brother gets the job"), "glad you …" and the talk itself ("Great chatting with you"): the
 * whole clause is the reaction. Not encouragement ("Keep at it and never forget your dreams"): what one friend
 * advises another is asked about. Not "glad to be home" or "hoping to move in June", which say something about the
 * speaker.
 */
const COURTESY = new RegExp(
  String.raw`^(?:congrats|congratulations|cheers|kudos|bravo|(?:good|best of) luck|well done|way to go|keep it up|keep up the (?:good|great|hard|amazing|awesome|fantastic) work|` +
    // "thanks to my sister, …" and "for the past year, …" open news: only the thing thanked for
    String.raw`thanks(?! to)|thank you|for (?:sharing|having|being|showing|your|the (?:[\w'’-]+ )?` +
    String.raw`(?:advice|tips?|support|help|recommendations?|suggestions?|encouragement|kind words|reminder|invite|invitation|info|update|pics?|pictures?|photos?|` +
    String.raw`offer|sympathy|push|understanding|resources|luck|kindness|motivation|inspiration|heads-up|heads up|shout-?out))|` +
    // what is thanked for, with "thanks" gone as an opener: "for always being there", "for believing in me", "for
    // letting me help, Maria"; with nothing after it but a name (not "For hiking, boots are best")
    String.raw`for (?:always |just |all |everything )?[a-z]+ing\b(?=[^,;:–—]*(?:,\s*\p{Lu}[\p{L}'’-]*)?[\s.!]*$)|` +
    String.raw`glad (?:to hear|you|your|that you|it|for)|(?:glad|happy) to help|(?:(?:really|truly|so|totally) )?appreciate (?:it|that|this|you|your)|` +
    // good wishes to the other speaker: "Wishing you all the best", "Sending healing vibes", "Hope all is well"
    String.raw`wishing (?:you|y['’]?all)|wish you (?:all the best|the best|luck|good luck|well)|` +
    String.raw`sending (?:you |some |lots of |so much |my )*(?:hugs?|love|(?:good |positive |healing |happy )?vibes|prayers|(?:good |best )?wishes|thoughts|strength|luck)|` +
    String.raw`hope (?:you|you['’]re|your|all['’]s|all is|all are|everything|things are)|` +
    // the talk itself, after "Great" or "Nice" (OPENERS): "Great chatting with you", "Nice to talk again"
    String.raw`(?:chatting|talking|catching up) (?:with you|again)|to (?:chat|talk|catch up)(?: again| with you)?(?=\s*[.!]*$)|to hear (?:it|that|from you)|` +
    String.raw`would love to (?:hear|see|know) (?:more|all about it|about it|it|them)|` +
    // sympathy for the other speaker's news: "Sorry to hear about your loss", "So sorry for your loss"
    String.raw`(?:(?:so|really|very) )?sorry (?:to hear|for your loss|about your)|` +
    // and looking forward to their news or pictures: "Can't wait to hear about it", "Can't wait to see the pics"
    String.raw`(?:can['’]?t|cannot) wait to (?:hear|see) (?:more|all about it|about it|it|them|you|the pics?|the photos?|the pictures?)|` +
    // wishes for what the other speaker is about to do: "Have a great time in Boston", "Have fun at the beach"
    String.raw`have (?:a |an )?(?:(?:really|very|so|safe|great|good|fun|wonderful|amazing|awesome|lovely|nice|fantastic|relaxing|` +
    String.raw`restful)\s+)+(?:time|trip|flight|journey|holiday|vacation|weekend|day|night|evening|hike|ride|game|show|party|stay)|` +
    String.raw`have (?:a )?blast|have (?:so much |lots of |loads of )?fun|enjoy (?:your|the) (?:trip|flight|holiday|vacation|weekend|day|night|` +
    String.raw`time|stay|show|concert|game|party|hike|meal)|` +
    // looking forward to the next talk or to hearing about it, not to something of the speaker's own
    String.raw`looking forward to (?:it|that|this|them|(?:the|our) next (?:chat|talk|catch-up|one)|(?:chatting|talking|catching up)(?: again)?|` +
    String.raw`hearing (?:more|about it|from you|all about it)|seeing (?:it|them|you|the pics?|the photos?|the pictures?)))\b`,
  'iu',
);

function contentWordCount(text: string): number {
  return text.split(/[^\p{L}\p{N}'’]+/u).filter((w) => w.length > 2).length;
}

/** Whether a clause (another person's statement, as said) is only a reaction to what the other speaker said. */
export function isReaction(clause: string): boolean {
  let text = clause.trim().replace(OPENERS, '');
  // "Melanie, those bowls are amazing": the name of the person spoken to goes too
  text = text.replace(/^\p{Lu}[\p{L}'’-]+,\s+/u, '');
  if (COURTESY.test(text)) return true;
  const evaluation = EVALUATION.exec(text);
  if (evaluation === null) return false;
  const rest = evaluation.groups?.rest ?? '';
  // "That's awful, my car broke down": what follows a comma or a dash is a statement of its own, and the clause
  // is a reaction only if that is one too ("… so gorgeous, well done")
  const after = /[,;:–—]\s*|\s-\s*/.exec(rest);
  if (after && /[\p{L}\p{N}]/u.test(rest.slice(after.index))) return isReaction(rest.slice(after.index + after[0].length));
  return contentWordCount(rest) <= 3;
}
