/**
 * Word lists and precompiled patterns for the built-in rule-based extractor.
 *
 * Patterns marked "(norm)" run on the normalised clause: lower-case, curly quotes straightened,
 * first-person and negative contractions expanded ("i'm" → "i am", "don't" → "do not", "im" → "i am").
 */

const DAYS = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday';
const MONTHS = 'january|february|march|april|may|june|july|august|september|october|november|december';
const NUM_WORDS = 'a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|several|many|few|couple of|\\d+';

/** Relationship nouns (family first: family members boost importance). */
export const FAMILY_WORDS =
  'wife|husband|partner|spouse|boyfriend|girlfriend|fianc[eé]e?|son|sons|daughter|daughters|kid|kids|child|children|baby|babies|twins?|' +
  'mother|mom|mum|mommy|mummy|mother-in-law|father|dad|daddy|father-in-law|parents|in-laws|brother|brothers|sister|sisters|sibling|siblings|' +
  'grandma|grandmother|granny|grandpa|grandfather|grandparents|grandson|granddaughter|grandchildren|grandkids|aunt|uncle|cousin|cousins|' +
  'nephew|niece|stepson|stepdaughter|stepmom|stepmother|stepdad|stepfather|family';
export const OTHER_REL_WORDS =
  'friend|friends|best friend|bff|boss|colleague|colleagues|coworker|coworkers|co-worker|co-workers|manager|roommate|roommates|' +
  'flatmate|flatmates|housemate|neighbor|neighbour|neighbors|neighbours|mentor|teammate|teammates|team lead|ex|ex-wife|ex-husband|' +
  'ex-boyfriend|ex-girlfriend|therapist|doctor|landlord|classmate|classmates';
const REL_WORDS = `${FAMILY_WORDS}|${OTHER_REL_WORDS}`;

/** (norm) "my [adj] <relation>" as the subject of the clause. */
export const REL_SUBJECT = new RegExp(`^my (?:(?:older|younger|little|big|elder|oldest|youngest|best|baby|twin|new|ex|late|step|[a-z]+-year-old|two|three) )*(?:${REL_WORDS})(?:'s)?\\b`);
/** (norm) a relation mentioned anywhere as "my <relation>". */
export const REL_ANY = new RegExp(`\\bmy (?:(?:older|younger|little|big|elder|oldest|youngest|best|baby|twin|new|ex|late|step) )*(?:${REL_WORDS})\\b`);
export const FAMILY_ANY = new RegExp(`\\b(?:${FAMILY_WORDS})\\b`);
/** (norm) "i have two kids", "i am married". */
export const REL_HAVE = new RegExp(
  `\\bi (?:also )?(?:have|have got|got) (?:(?:${NUM_WORDS}|twin|little|young|grown|adult|teenage|older|younger) )*(?:kids|children|sons?|daughters?|brothers?|sisters?|siblings|grandchildren|grandkids|twins|boyfriend|girlfriend|wife|husband|partner|fianc[eé]e?|stepson|stepdaughter)\\b`,
);
export const REL_STATUS = /\bi am (?:(?:happily|recently|newly|now|still) )?(?:married|engaged|divorced|single|widowed|separated|a (?:single )?(?:mom|mum|mother|dad|father|parent|grandmother|grandfather|grandparent|stepmom|stepdad))\b/;

/** Past time markers (norm). */
export const PAST_MARKER = new RegExp(
  `\\b(?:yesterday|last (?:week|month|year|summer|winter|spring|fall|autumn|weekend|night|time|${DAYS}|${MONTHS})|` +
    `(?:${NUM_WORDS}) (?:days?|weeks?|months?|years?|decades?) ago|ago|in (?:19|20)\\d{2}|back in|when i was|` +
    `on (?:${DAYS})|in (?:${MONTHS})(?: (?:19|20)\\d{2})?|earlier this (?:year|month|week))\\b`,
);

/** Future-plan markers (norm). */
export const FUTURE_PLAN = new RegExp(
  `\\bi will be \\w+ing\\b|\\bi am (?:\\w+ )?(?:moving|getting married|starting|having a baby|relocating|switching|changing)\\b.*\\b(?:next|soon|in (?:${MONTHS})|in (?:19|20)\\d{2})\\b|\\bnext (?:week|month|year|summer|winter|spring|fall|autumn)\\b.*\\bi (?:will|am going to)\\b`,
);

export const GOAL =
  /\b(?:want to|wanna|i (?:really )?want (?:a|an|my own)|plan to|planning to|plan on|planning on|hope to|hoping to|going to (?!(?:the|a|an|my|bed|work|school|church|sleep|college|university|class|gym)\b)|gonna|trying to|try to|training for|i am (?:\w+ )?learning|saving for|saving up for|saving up to|my goal|goal is|aim to|aiming to|would like to|would love to|intend to|intending to|dream is|dream of|working towards?|determined to|need to|have to finish|studying for|preparing for)\b/;

/** (norm) preference verbs with "i" as the subject. */
export const PREFERENCE =
  /\bi (?:(?:really|also|absolutely|just|totally|truly|kind of|sort of|kinda|still|do|do not|really do not|never|generally|usually|always|definitely|much|would) )*(?:love|like|enjoy|hate|prefer|dislike|detest|adore|despise|loathe|cannot stand|can not stand|am not a fan of)\b|\bfavou?rite\b|\bi am (?:a )?(?:big |huge |massive |great )?fan of\b|\bi am (?:really |very |so |not )?(?:into|fond of|obsessed with|passionate about|keen on)\b|\bi would rather\b/;

/** (norm) expertise. */
export const EXPERTISE =
  /\byears? of (?:professional )?experience\b|\bi (?:also |really )?know (?!that\b|what\b|you\b|it\b|this\b|him\b|her\b|them\b|about\b|why\b|when\b|where\b|who\b|a lot\b|the\b|my\b|someone\b|people\b|nothing\b|right\b|i\b|if\b|how it\b|he\b|she\b|they\b|we\b|there\b|so\b)[a-z+#.]+|\bi am (?:really |very |pretty |quite |fairly |super )?(?:good|great|skilled|proficient|experienced|fluent|certified|trained|qualified|an expert|expert) (?:at|in|with|as)\b|\bi am an? (?:expert|specialist|senior|seasoned|experienced|certified|qualified|professional)\b|\bexpert in\b|\bi (?:also )?speak\b|\bfluent in\b|\bnative speaker\b|\bi (?:have )?(?:a (?:degree|phd|masters?|bachelors?)|degree|phd) in\b|\bi (?:studied|majored in)\b|\bi specialis[e]?\b|\bi specializ[e]?\b|\bspeciali[sz]ing in\b/;
/** (norm) "i have been <verb>ing ... for N years" / "i have worked as ... for N years". */
export const EXPERTISE_DURATION = new RegExp(
  `\\bi have (?:been \\w+ing|\\w+ed|done|taught|written|built|run)\\b.*\\bfor (?:over |more than |almost |nearly |about )?(?:${NUM_WORDS}) (?:years?|decades?)\\b|\\bsince (?:19|20)\\d{2}\\b.*\\b(?:developer|engineer|programm|coding|teaching|nurse|doctor|design)`,
);
export const NOT_SKILL = /\b(?:liv(?:ed|ing)|stay(?:ed|ing)|married|dating|together|vegetarian|vegan|rent(?:ed|ing)|sick|wait(?:ed|ing)|suffer(?:ed|ing)|smok(?:ed|ing)|sober|friends)\b/;

/** (norm) habits / routines. */
export const PROCEDURE = new RegExp(
  `\\b(?:usually|always|normally|typically|generally|daily|weekly|nightly|routine|habit|habits|tend to|i often|most (?:days|mornings|nights|evenings|weekends)|` +
    `every (?:single )?(?:day|morning|night|evening|afternoon|week|weekend|month|year|${DAYS})|each (?:day|morning|night|evening|week|weekend|month)|` +
    `on (?:weekends|weekdays|(?:${DAYS})s)|once a|twice a|(?:${NUM_WORDS}) times a)\\b`,
);

/** Words that make a statement uncertain (norm). */
export const HEDGE = /\b(?:maybe|perhaps|probably|possibly|i think|i guess|i believe|i suppose|kind of|sort of|kinda|sorta|might|not sure|i feel like)\b/;

/** Leading hedges stripped before parsing, only when an "i"/"my" subject follows. */
export const LEADING_HEDGE = /^(?:(?:i think|i guess|i believe|i suppose|i reckon)(?: that)?|maybe|perhaps|probably|possibly)\s*,?\s+(?=(?:i|i'm|i've|i'd|i'll|im|ive|my)\b)/i;

/** Discourse markers / greetings stripped from the start of a clause. */
export const LEADING_FILLER =
  /^(?:(?:hi|hello|hey|hiya|yo|oh|ok|okay|so|well|also|and|but|anyway|anyways|btw|by the way|fyi|actually|honestly|yeah|yes|yep|no|nope|um|uh|umm|hmm|thanks|thank you|haha|lol|plus|fun fact|for context|just so you know|for the record|as i said|like i said|as i mentioned|as mentioned|good morning|good evening|good afternoon|in fact|as a matter of fact|incidentally|interestingly|interestingly enough|funnily enough|funny enough|come to think of it|now that i think about it|to be honest|to be fair|tbh|wait|oh wait|oops|my bad|to correct myself|quick update|one more thing|on that note|on another note|on a related note|on a side note|side note|as a side note|that reminds me|which reminds me|speaking of which|oh yeah|alright|all right|ps|p\.s|the thing is|truth is|the truth is|not gonna lie|not going to lie|ngl|for example|for instance|for sure)(?: there| again| so much)?\s*[,:!\-–—.]*\s+)+/i;

/** How long it has been, in a greeting ("Been a while since we talked"; dropped-subject.ts leaves it alone too). */
export const TIME_SPAN =
  String.raw`(?:ages|forever|a while|awhile|a (?:long|little) (?:time|while)|too long|so long|` +
  String.raw`(?:a few|a couple of|several|\d+|two|three|four|five|six) (?:days|weeks|months|years)|` +
  // "Been a crazy few days", "Been a tough year": how the time was, not the speaker
  String.raw`an? (?:(?:crazy|busy|wild|hectic|long|rough|tough|quiet|fun|great|good|hard|weird|strange|mad|few|couple of)\s+){1,2}(?:days?|weeks?|months?|years?|while|time))`;

/**
 * Greetings and goodbyes said to the other person ("Long time no see", "Good to hear from you", "Have a good one",
 * "Take care", "Been ages since we talked"): phatic, about no one. Between named speakers a clause of four words or
 * more was kept as a report of them ("Maria said that Long time no see."), 145 of LoCoMo's 11,895 memories, and one
 * before a statement kept the statement inside the report ("Long time no chat - I adopted a pup …"). Stripped from
 * the start of a clause like the other openers, so one that is all greeting is small talk. A bare pointer to a
 * picture or a thing shown ("Check it out!", "Take a look at this", "Here you go") is phatic too: alone it was kept
 * as "Melanie said that take a look at this", and before news it hid the news inside a report ("Andrew said that
 * Check it out, Andrew's girl & Andrew tried out that new cafe"). A pointer that says what is shown ("Check out
 * this pic of my garden", "Here's a photo I took in Bogota", "Look at the sunset") is not bare and stays.
 */
/** A word for a thing shown that says nothing of it: "this pic", "the result", "one example". */
const SHOWN = String.raw`(?:one|pic|pics|picture|pictures|photo|photos|shot|shots|snap|screenshot|video|result|results|view|creation|example)`;
const PHATIC =
  String.raw`long time no (?:see|talk|chat|speak)|(?:(?:it's|it is|so|really|always) )*(?:good|great|nice|lovely|awesome|so good) to ` +
  String.raw`(?:see|hear from|talk to|chat with|catch up with) (?:you|ya|y'all)(?: again| too)*|` +
  String.raw`have an? (?:good|great|nice|lovely|wonderful|fun|awesome) (?:one|day|night|weekend|evening|week)|take care|` +
  String.raw`talk (?:to you )?(?:soon|later)|(?:see|catch) (?:you|ya) (?:soon|later|then|around)|` +
  // "Been a while since we talked", "It's been ages"
  String.raw`(?:(?:it's|it has|it) )?been ${TIME_SPAN}(?: since (?:we|i) (?:last )?(?:talked|chatted|spoke|caught up|saw each other)(?: last)?)?|` +
  // a pointer to what is shown, said before or instead of telling it: "Check it out", "Take a look at this", "Just
  // look at the result", "Here's a pic"; the thing shown named by a word that says nothing of it
  String.raw`(?:just )?(?:check (?:it|this|that|these|them) out|check out (?:this|that|these|the)(?: ${SHOWN})?|` +
  String.raw`(?:(?:take|have) a (?:quick )?look at|look at) (?:this|that|these|the)(?: ${SHOWN})?|` +
  String.raw`(?:take|have) a (?:quick )?look(?: at (?:it|them))?)|` +
  String.raw`here (?:it is|you go|they are)|here(?:'s|’s| is| are) (?:a|an|one|this|the|some|my) ${SHOWN}|` +
  // announcing news before telling it: "You won't believe it - I got mentored …"
  String.raw`you (?:won't|won’t|will not) believe (?:it|this|what happened)|you(?:'ll|’ll| will) never guess(?: what(?: happened)?)?`;
export const LEADING_PHATIC = new RegExp(String.raw`^(?:(?:${PHATIC})(?:\s*[,:!\-–—.]+\s*|\s+and\s+|\s*$))+`, 'i');

/** Trailing chatter stripped from the end of a clause. */
export const TRAILING_FILLER = /(?:\s*[,;]?\s+(?:btw|lol|haha|by the way|though|tbh|fyi)|\s*(?::\)|:\(|:d|:p|;\)|<3))+\s*[.!]*\s*$/i;

/** A clause that starts with a first-person subject (raw, case-insensitive). */
export const FIRST_PERSON_START = /^(?:i|i'm|i've|i'd|i'll|i am|im|ive|my|me and)\b(?!\.)/i;
/** Any first-person singular reference. */
export const ANY_SELF = /\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself|im|ive)\b/i;

/** Sentences made only of greetings / acknowledgements. */
export const SMALL_TALK_WORDS = new Set(
  (
    'hi hello hey hiya yo there thanks thank you thx ty tysm so much a lot ok okay k kk lol lmao haha hahaha hehe bye goodbye ' +
    'see ya later cya good morning night evening afternoon day how are doing is it going whats up sup nice cool great awesome ' +
    'perfect sure yes no yeah yep yup nope got it sounds amazing wonderful excellent fine alright right please welcome cheers ' +
    'wow oh hmm hm um uh ah np problem all everyone again too much appreciate appreciated very well done exactly indeed agreed ' +
    'makes sense true interesting lovely sweet brilliant fantastic ha omg oops sorry and same back at'
  ).split(' '),
);
/** The words for what the other speaker suggested. */
const SUGGESTION_NOUNS = 'tips|suggestions|ideas|points|recommendations|pointers|things|factors|considerations|options|resources|steps|strategies|questions|precautions|reminders|warnings';
/** What the other speaker suggested, named as such: "those tips", "some of your ideas", "all of that". */
const SUGGESTIONS = String.raw`(?:all (?:of )?(?:that|this|those|these)|(?:(?:some|all|a few) (?:of )?)?(?:those|these|your|the)(?: \w+)? (?:${SUGGESTION_NOUNS}))`;
/** The same, or a pronoun: "it", "them". */
const SUGGESTED = String.raw`(?:it|that|this|them|those|these|${SUGGESTIONS})`;
/**
 * A promise to look at, try or remember what was suggested: "I'll definitely check them out", "I'll keep that in
 * mind", "I'll give those tips a try". Trying or looking into something named by a pronoun alone stays: the reply
 * context says what it is ("Sam will give it a try (in reply to Evan: "Have you considered swapping soda for
 * seltzer?")").
 */
const PROMISE = String.raw`(?:i will|i would love to|i am going to|i am gonna|i will have to|i might|i should)(?: (?:definitely|certainly|surely|also|for sure|probably|totally|really))? (?:(?:check|try) ${SUGGESTED} out|(?:check|try) out ${SUGGESTIONS}|try ${SUGGESTIONS}|give ${SUGGESTIONS} a (?:try|shot|go|look)|look into ${SUGGESTIONS}|(?:keep|bear) ${SUGGESTED} in mind)`;
/** Thanks after an acknowledgement: "…, thanks for the tips!" */
const THANKS_FOR = String.raw`(?:,?\s*(?:thanks|thank you)(?: so much| a lot)? for (?:the|your|all the|all your|these|those|this|that)(?: \w+)? (?:${SUGGESTION_NOUNS}|help|info|information|advice))?`;
/**
 * First-person acknowledgements that carry no durable information (norm). A promise to look at or remember what the
 * other speaker just suggested says nothing of its own ("I'll definitely check them out!", "I'll keep those tips
 * in mind"); with more after it, it is kept ("I'll keep that in mind when I repot the figs").
 */
export const FIRST_PERSON_SMALL_TALK = new RegExp(
  String.raw`^(?:i see|i understand|i know|i know right|i think so|i guess so|i hope so|i suppose so|i (?:really |just |honestly )?do not (?:really )?know|i do not think so|i am not sure(?: .*)?|i do not know (?:if|whether|what)(?: .*)?|i have no idea|i mean|i am (?:fine|good|ok|okay|great|well|alright|doing (?:well|good|fine|great|ok|okay|alright)|sorry|here|back|ready|done|in|out|listening)|i (?:really )?(?:love|like|appreciate|hate|enjoyed|loved|liked) (?:it|that|this|those|these|them|your \w+)(?: (?:one|idea|answer|suggestion|recipe|a lot|so much|very much))*|i (?:really |also |definitely |truly )?(?:love|like|appreciate|appreciated|loved|liked) (?:all )?(?:the|your|these|those)(?: \w+)? (?:tips|suggestions|advice|ideas|recommendations|info|information|explanation|explanations|help|template|list|breakdown|pointers|insights|input|feedback|guidance|resources|options)|(?:i think )?i remember now|i will (?:stop|leave it) (?:here|there)(?: for now)?|i am (?:happy|glad) (?:to help|i could help|i was able to help)|i will (?:try|do) (?:it|that|this)|${PROMISE}|i got it|me too|i am glad|i am happy to hear that|i am sorry to hear that|i have been meaning to (?:ask|tell you|mention)(?: .*)?|i (?:apologi[sz]e|am sorry)(?: for| about)?(?: .*)?|i (?:totally |completely |really |definitely )?(?:get|understand|feel) (?:it|that|you|what you mean)|i (?:totally |completely |definitely |also |strongly |fully )?agree|i could not agree (?:more|with you more)|i am (?:always )?here (?:for|to support) you(?: anytime| always| no matter what)?|i will keep you (?:posted|updated|in the loop)|i will let you know|i have (?:got )?to go(?: now)?(?:,? bye)?|i can tell)(?:,\s*[a-z]+)?(?:\s+(?:thanks|thank you|too|then|now|a lot|so much))*${THANKS_FOR}$`,
);

/**
 * A clause that only announces a question or a remark (norm, the whole clause): "I was wondering, can I …?", "I'm
 * also curious, are there …?", "I wanted to ask you", "I have to admit, …", "I have one more question". The
 * question or remark that follows is a clause of its own and is judged on its own; the announcement says nothing.
 */
export const ANNOUNCES_QUESTION = new RegExp(
  String.raw`^(?:(?:and|but|so|also|oh|well|now) )*i (?:(?:was|am|have been|had been)(?: (?:also|just|really|now|still|always|actually|kind of|kinda|a bit|a little))* (?:wondering|curious|thinking)|(?:also |just |really |actually )?wonder` +
    String.raw`|(?:also |just |really |actually )?(?:want|wanted|would like|meant) to ask(?: (?:you|about something|something|a (?:quick |follow-up )?question|another question|one more (?:thing|question)))?` +
    String.raw`|(?:have|had|have got|got) to (?:say|admit|ask)|(?:also )?have (?:one|a|another|a few)(?: (?:more|quick|other|follow-up))? questions?|need to clarify something)` +
    String.raw`(?: (?:too|though|now|again|as well))?$`,
);

/** Questions / requests to the assistant (norm, checked at clause start). */
export const QUESTION_START =
  /^(?:(?:can|could|would|will|do|did|does|are|were|have|should|shall|may|might) (?:you|we|u|i)|(?:what|how|why|when|where|who|which|whose) (?:is|are|was|were|do|does|did|can|could|should|would|will|has|have|about|if|kind|sort|time|else|to|s|am)|whats|hows|wheres|whos|whys|is it|is there|is that|is this|are there|please|pls|plz|write|tell me|help me|give me|show me|explain|list|describe|summari[sz]e|translate|generate|suggest|recommend|find me|let me know|lets|let us|make me|create|draft|compose|remind me|i need you to|i want you to|i would like you to|i need help|i need some help|i was wondering|i wonder|i would like (?:a|an|some|the|to know|to ask|help)|i want (?:a|an|some) (?:recipe|list|summary|answer|idea|ideas|suggestion|suggestions|plan|poem|story|email)|any (?:ideas|tips|suggestions|recommendations))\b/;

/** Clauses that speak to the assistant ("you") are conversational, not durable facts about the user. */
export const ADDRESSES_ASSISTANT = /\b(?:you|your|yours|u|ur)\b/;

const STATE_PREFIX =
  '^i (?:am|feel|am feeling|am getting|got)(?: (?:so|very|really|a bit|a little|kind of|kinda|pretty|super|quite|extremely|totally|just|not|too|getting|still|already))* ';
/** Momentary moods (norm): only when nothing durable follows ("I feel anxious in crowds" is kept). */
export const TRANSIENT_MOOD = new RegExp(
  STATE_PREFIX +
    '(?:tired|exhausted|hungry|starving|thirsty|bored|sleepy|sick|ill|busy|stressed|stressed out|annoyed|angry|upset|sad|happy|excited|nervous|anxious|cold|hot|late|early|ready|done|free|awake|drunk|full|confused|lost|stuck|frustrated|overwhelmed|grumpy|well|great|good|bad|better|worse|fine)' +
    '(?=$| (?:because|after|since|from|and|but|so|lol|haha|af|now|again)\\b)',
);
/**
 * Whereabouts and passing states of mind (norm). Activities in progress, "just …" and appointments are
 * judged in now.ts: "I'm looking for a flat in Porto" and "I'm thinking of switching to Todoist" are plans.
 */
export const TRANSIENT_STATE = new RegExp(
  STATE_PREFIX +
    `(?:home|back|here|in a (?:meeting|hurry|rush|call)|on (?:my|the) way|on a (?:break|call|train|bus|plane)|at (?:the|a|work|home|school|the office|my desk)\\b|` +
    `going to bed|going to sleep|going out|getting ready|wondering|curious(?! about)|trying to figure out|not feeling well|feeling)\\b`,
);

/** Redacted secrets inserted by the ingestion layer. */
export const REDACTED = /\[REDACTED[^\]]*\]/;

/** A pronoun that points back to something said before ("How was it?", "What got you into that?"): follow-up questions. */
export const POINTS_BACK = /\b(it|that|this|they|them|those|these)\b/iu;

/** Importance boosts (norm). */
export const HEALTH =
  /\b(?:allerg\w*|intoleran\w*|diabet\w*|celiac|coeliac|asthma\w*|epilep\w*|pregnan\w*|medication|medications|medicine|disabilit\w*|disabled|adhd|autis\w*|anxiety|depress\w*|migraine\w*|blood pressure|heart (?:condition|disease)|cancer|surgery|chronic|wheelchair|deaf|blind|insulin|inhaler|bipolar|ptsd|ocd|dyslexi\w*|diagnos\w*|condition|injur\w*|arthritis|sober)\b/;
export const DIET =
  /\b(?:vegetarian|vegan|pescatarian|gluten|lactose|dairy|kosher|halal|keto|paleo|do not eat|cannot eat|eat meat|no meat|do not drink|alcohol|teetotal|plant-based|nut|nuts|peanuts?|shellfish|seafood|diet)\b/;
export const IDENTITY =
  /\b(?:my name is|my name's|call me|i am \d+|\d+ years old|\d+-year-old|born|my pronouns|pronouns|nationality|citizen|i am from|i come from|native of|my birthday|birthday is|gay|lesbian|bisexual|transgender|non-binary|nonbinary|religio\w*|muslim|christian|jewish|hindu|buddhist|atheist)\b/;
export const LOCATION =
  /\b(?:live in|living in|lives in|lived in|based in|moved to|move to|moving to|relocat\w*|reside|resides|residing|from|hometown|my address|my city|my country|time ?zone|grew up in)\b/;
export const JOB =
  /\b(?:work as|work at|work for|work in|working as|working at|working for|works as|worked as|worked at|worked for|job|profession|employed|employer|career|my company|my startup|my business|self-employed|freelanc\w*|retired|unemployed|student at|studying at|i am an? (?:\w+ )?(?:engineer|developer|programmer|nurse|doctor|teacher|lawyer|designer|manager|accountant|architect|scientist|researcher|writer|student|chef|artist|consultant|analyst|pharmacist|dentist|therapist|journalist|musician|pilot|farmer|electrician|plumber|mechanic|founder|ceo|cto|professor|librarian|photographer|paramedic|firefighter|police officer|soldier|veterinarian|vet|translator|salesperson|entrepreneur))\b/;

/** Abbreviations that end in "." but do not end a sentence. */
export const ABBREVIATION_END = /\b(?:mr|mrs|ms|dr|st|prof|sr|jr|vs|etc|e\.g|i\.e|approx|dept|inc|ltd|mt|ave)\.$/i;
