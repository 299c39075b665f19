/**
 * Self-disclosures that a sentence's opening or its question form used to hide from the built-in extractor.
 *
 * Openers (the cause: chat messages start a new topic with a discourse marker or a scene-setting phrase
 * before the subject, and a clause that does not start with "I"/"my" was skipped as "no self-reference"):
 *
 * | opener                                                        | handling                                   |
 * |---------------------------------------------------------------|--------------------------------------------|
 * | discourse markers: "Oh, and", "Also,", "Actually,", "By the way,", "Besides,", "In fact,", "Wait,", "To correct myself,", "That reminds me," … (LEADING_FILLER in lexicon.ts) | dropped |
 * | a topic: "Speaking of gardening,", "As for my sister,", "When it comes to coffee,", "Regarding the trip," | dropped |
 * | "I just realized (that)", "I just remembered", "I wanted to mention that", and without "I" "Just wanted to let you know (that)", "Wanted to give you the heads up on …" before a first-person statement | dropped: the statement is what follows |
 * | news announced before a first-person statement: "Great news:", "Good news,", "Big news -", "Exciting update:", "Update:", "Some news:", "The good news is that", "Guess what," | dropped: the statement is what follows |
 * | a companion named before "I": "Noor and I split up" (`companionFirst`) | read as "me and Noor …": "The user and Noor split up." |
 * | a scene: "In March,", "During my trip to Kyoto,", "After the wedding,", "When I was a kid,", "Since I started running,", "For my birthday," … followed by a first-person subject | kept in front of the rewritten clause: "During the user's trip to Kyoto, the user bought a tea set." |
 * | where a story goes next, with or without a comma: "Before that I", "Since then I", "Two days later I", "The next day I", "Then I", "Eventually I", "At first I" | kept in front the same way: "Before that, the user had asked the user's pharmacist." |
 *
 * Questions and requests (the cause: people state a constraint, a plan or a preference while asking for
 * something, in the same sentence):
 *
 * | phrasing                                                       | memory                                     |
 * |----------------------------------------------------------------|--------------------------------------------|
 * | "I'm considering upgrading to a Les Paul — what are the differences?" | the statement before the question (QUESTION_BOUNDARY in builtin.ts also splits at a dash, a colon, or "but/so" before a question word) |
 * | "As a nurse on night shifts, how can I sleep better?" / "As someone who loves spicy food, …" | "The user is a nurse on night shifts." |
 * | "… for a beginner like me", "… for someone with bad knees like me" | "The user is a beginner." / "The user is someone with bad knees." |
 * | "Can you suggest recipes since I'm vegetarian?", "Skip the basics as I work in the field." | the reason: "The user is vegetarian." |
 * | "What's a good gift for my sister who loves hiking?"           | "The user's sister loves hiking."          |
 * | "Remember when I adopted two kittens from the shelter?"        | "The user adopted two kittens from the shelter." |
 * | any other question or request that speaks of the user's own things or state ("my …", "I'm …", "I have …"): "How often should I water my new fiddle-leaf fig?" | "The user asked: how often should the user water the user's new fiddle-leaf fig?" (importance 0.4) |
 */
import { FAMILY_WORDS, OTHER_REL_WORDS } from './lexicon';

const SUBJECT_AHEAD = String.raw`(?=(?:i|i'm|i've|i'd|i'll|im|ive|my|me and|we|we're|we've|we'd|we'll|our)\b)`;
const NOT_SUBJECT = String.raw`(?!\s*(?:i|i'm|i've|i'd|i'll|im|ive|my|me and|we|we're|we've|we'd|we'll|our)\b)`;

/** A topic named before the statement: dropped ("Speaking of Germany, I have a friend there"). */
export const LEADING_TOPIC = new RegExp(
  String.raw`^(?:(?:(?:speaking|talking) (?:of|about)|as for|as regards|regarding|re|about|when it comes to|in terms of|with (?:regards?|respect) to|on the (?:topic|subject) of|as far as)\b[^,.!?]{1,80},|` +
    // "I just realized (that) I …", "I wanted to mention that my …": the statement is what follows
    String.raw`i (?:just |also |suddenly |only )?(?:realized|realised|remembered|noticed|recalled|wanted to (?:mention|say|share|add|tell you|let you know|update you)|should (?:also )?mention|forgot to mention|meant to (?:say|mention|tell you))(?: that)?,?|` +
    // the same said without "I", as chat does: "Just wanted to give you the heads up on what's been happening - I …"
    String.raw`(?:just )?wanted to (?:let you know|tell you|update you|share|give you (?:a|the) heads[- ]up(?: on [^,:;.!?–—]{1,60}?)?)(?: that)?\s*[,:\-–—]*|` +
    // news announced before it is told: "Great news: I …", "Exciting update: my …", "The good news is that we …"
    String.raw`(?:the |some |a bit of |a little |an? )?(?:(?:great|good|big|exciting|happy|wonderful|amazing|fun|sad|bad|quick|small|little|major|huge|personal|latest|some)\s+)?(?:news|update)(?:\s+flash)?(?:\s+is(?:\s+that)?|\s*[,:!.\-–—]+)|guess what\s*[?!,:.]*)\s+` +
    SUBJECT_AHEAD,
  'i',
);

/**
 * A scene set before the subject: a time, a place, an occasion or a subordinate clause, up to two comma
 * pieces long ("During my visit to Denver, where I met the band, I realised …"). Kept as a prefix.
 */
export const LEADING_FRAME = new RegExp(
  String.raw`^((?:in|on|at|during|after|before|since|over|around|by|for|from|throughout|within|until|till|back in|back when|earlier|later|last|this|next|when|whenever|while|once|as soon as|ever since|every|each|besides|apart from|aside from|other than|along with|like|unlike|although|though|even though|because|if|unless|growing up|as a (?:kid|child|teenager|student)|a few|a couple of|two|three|four|five|six|seven|eight|nine|ten|\d+)\b` +
    String.raw`[^,.!?;]{0,100}(?:,${NOT_SUBJECT}[^,.!?;]{1,100})?),\s+` +
    SUBJECT_AHEAD,
  'i',
);
/** The same without a comma, for the usual short openings: "When I was a kid I lived in Goa", "In March I visited …", "Since June I work …". */
export const LEADING_FRAME_NO_COMMA = new RegExp(
  String.raw`^(when i was (?:a kid|a child|a teenager|young|younger|little|growing up|in (?:high school|college|school|university))|growing up|as a (?:kid|child|teenager)|` +
    String.raw`(?:in|during|over|since) (?:the )?(?:(?:early|late|mid)[- ])?(?:january|february|march|april|may|june|july|august|september|october|november|december|spring|summer|fall|autumn|winter|holidays|(?:19|20)\d\d)(?: (?:19|20)\d\d)?|` +
    String.raw`on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|over the weekend|earlier this (?:week|month|year)|back in (?:19|20)\d\d|` +
    // where a story goes next: "Before that I had asked my pharmacist", "Two days later I got the offer", "At first I …"
    String.raw`(?:before|after) (?:that|this)|since then|(?:soon|shortly|right|just) after(?: that)?|afterwards?|then|later(?: on)?|` +
    String.raw`(?:later|earlier) (?:that|this) (?:day|morning|afternoon|evening|night|week|weekend|month|year)|` +
    String.raw`the (?:next|following|previous) (?:day|morning|afternoon|evening|night|week|weekend|month|year)|` +
    String.raw`(?:a|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of|several|\d+) (?:days?|weeks?|months?|years?) (?:later|earlier)|` +
    String.raw`eventually|finally|at first|in the end|in the meantime|meanwhile|back then|at the time|at that point|by then)\s+` +
    SUBJECT_AHEAD,
  'i',
);
/** Frames that make the statement hypothetical. */
export const CONDITIONAL_FRAME = /^(?:if|unless)\b/i;

/**
 * A companion named before "I" ("Alex and I broke up"): the user is a subject, but the sentence was split at "and I",
 * which lost the companion, or the clause was skipped as "no self-reference". Read as "me and Alex …", which the
 * third-person rewriting turns into "The user and Alex …". The companion is a capitalised name, not a word that
 * opens a clause ("Then", "So", …); "my wife and I" was already read whole ("The user's wife and the user …");
 * "and I'm/I've" is left alone.
 */
const COMPANION_AND_I = new RegExp(
  String.raw`(^|,\s+)((?!(?:Then|But|So|And|Now|Also|Today|Yesterday|Tonight|Later|Afterwards|Recently|Finally|Eventually|Last|This|Next|When|After|Before|Since|Once|While|Both|Together)\b)[A-Z][\p{L}'-]+(?: [A-Z][\p{L}'-]+)?) and I\b(?!['’])`,
  'u',
);
export function companionFirst(text: string): string {
  return text.replace(COMPANION_AND_I, (_m, before: string, companion: string) => `${before}me and ${companion}`);
}

/** "As a nurse, …" / "As someone who loves hiking, …": the role becomes a statement of its own. */
const AS_ROLE = /^(?:as|being) (an? (?!result\b|matter\b|side\b|reminder\b|follow-up\b|quick\b)[^,.!?]{2,60}|someone (?:who|with|that)[^,.!?]{2,80}|a person (?:who|with)[^,.!?]{2,80}),\s+/i;
/** "… for a beginner like me", "… for someone with bad knees like me". */
const LIKE_ME = /\b(?:for|to) (an? [^,.!?]{2,50}?|someone (?:who|with|that)[^,.!?]{2,60}?|somebody (?:who|with)[^,.!?]{2,60}?) like (?:me|myself)\b/i;
/** A first-person reason inside a question or a request. */
const REASON =
  /\b(?:since|because|cause|cuz|as|given that|now that|considering(?: that)?|seeing as|especially since|especially as)\s+(?!i (?:mentioned|said|was saying|understand|see it|recall|remember|know)\b|far as|soon as|long as|well as|much as)((?:i|i'm|i've|i'd|im|ive|my|we|we're|we've|our)\b[^?,;]{6,})/gi;
/**
 * "Remember when I adopted two kittens …?", "Do you remember that my sister …": a reminder, not a question. Also
 * after a dash, a colon, a semicolon or a comma, ending a longer sentence ("it's been a long search - remember
 * when I got the offer from Acme?"); there only "remember"/"recall", since "…, know how I …" is usually a request.
 */
const REMINDER = new RegExp(
  String.raw`(?:^(?:(?:do|did) you |you |as you )?(?:remember|recall|know)|(?:[,;:]|\s[-–—]+)\s*(?:(?:do|did) you |you )?(?:remember|recall)) (?:when|that|how) ` +
    String.raw`((?:i|i've|i'm|i'd|my|we|we've|our)\b[^?]{6,})`,
  'i',
);
/** "my sister who loves hiking", "my dog that barks at strangers". */
const MY_WHO = new RegExp(
  String.raw`\bmy ((?:(?:older|younger|little|big|best|new|old) )*(?:${FAMILY_WORDS}|${OTHER_REL_WORDS}|dog|cat|puppy|kitten|pet)) (?:who|that) ((?:is|was|has|had|loves|likes|hates|lives|works|needs|wants|gets|can|cannot|can't|doesn't|does not|isn't|is not|[a-z]+s)\b[^?,;]{3,})`,
  'gi',
);

/** "As a nurse on night shifts, how can I …" → "I am a nurse on night shifts" and the rest of the sentence. */
export function roleOf(text: string): { statement: string; rest: string } | null {
  const role = AS_ROLE.exec(text);
  return role ? { statement: `I am ${role[1].trim()}`, rest: text.slice(role[0].length) } : null;
}

/** Statements a question or a request makes on the side, written as first-person clauses to analyse. */
export function embeddedStatements(text: string): string[] {
  const out: string[] = [];
  const reminder = REMINDER.exec(text);
  if (reminder) out.push(reminder[1].trim());
  const like = LIKE_ME.exec(text);
  if (like) out.push(`I am ${like[1].trim()}`);
  for (const m of text.matchAll(REASON)) out.push(m[1].trim());
  for (const m of text.matchAll(MY_WHO)) out.push(`My ${m[1]} ${m[2].trim()}`);
  return out;
}

/** Things of the user's that do not say anything about the user ("my question", "my last message"). */
const META_MY = /\bmy (?:question|questions|request|message|messages|previous|last|earlier|first|second|next|prompt|text|writing|paragraph|sentence|essay|code|answer|point|points|list|draft|query|post|own)\b/gi;
/** (raw) a question that speaks of the user's own things or state. */
const SPEAKS_OF_USER =
  /\bmy\s+[a-z]|(?<!\b(?:do|did|does|should|can|could|would|will|must|may|might|shall|am|have|was)\s)\b(?:i'm|i am|i've|i have|i had|i was|i'll|i will)\b/i;

/** True when a question or request says something about the user beyond asking. */
export function questionSpeaksOfUser(text: string): boolean {
  const t = text.replace(/[’‘]/g, "'").replace(META_MY, '');
  return SPEAKS_OF_USER.test(t);
}

/** "I was wondering if you could suggest …" → "could you suggest …": the request without its preamble. */
export function plainRequest(text: string): string {
  return text
    .replace(/^(?:(?:i )?(?:was|am|i'm) )?(?:just )?wondering (?:if|whether) you (could|can|would|might)\b/i, '$1 you')
    .replace(/^(?:(?:i )?(?:was|am|i'm) )?(?:just )?wondering (?:if|whether) you (have|know)\b/i, 'do you $1')
    .replace(/^(?:(?:i )?(?:was|am|i'm) )?(?:just )?wondering (?:if|whether)\s+/i, 'whether ');
}
