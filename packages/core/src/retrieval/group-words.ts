/**
 * Words that name a group, and the words its members are named by. A question asks about the group ("How many
 * siblings do I have?", "What are my pets called?", "Which instruments do I play?"); the user named the
 * members ("my sister", "our dog Max", "I've been practising the cello"). The word vectors put "siblings"
 * near "sister", but averaged over a sentence that nearness is lost among its other words, and BM25 has no
 * sense of it at all. So a group word in the query also matches its members' words, each with its own BM25
 * weight (a rare member word weighs more, as a rare query word would).
 *
 * Only closed groups whose members are few and named the same way by everyone: family by relation ("family
 * members" and "relatives" as a whole, cousins, aunts and uncles too; "family" alone is a word of its own: "a
 * family trip", "her family supported her"), pets, musical instruments, and the units a measure is stated in
 * ("What was the total weight of the feed I bought?" → "20 pounds of scratch grains"; "distance" → miles; not
 * "far", which "so far" asks about counts). Open groups ("hobbies", "sports", "foods") have too many members to
 * list, and a partial list would favour the members it names. A family's life events are few and named alike
 * (a wedding, a funeral, a graduation).
 *
 * The kinds of consumer service people name by brand are closed groups too ("Which streaming service did I start
 * using most recently?" → "a documentary I saw on Disney+"; "Which food delivery apps have I used?" → "my weekends
 * have been all about Uber Eats"; "my followers on social media" → "Instagram"): a question names the kind, the
 * user names the brand. Their group is named by two words ("food delivery", "social media"), or by "streaming";
 * only brand names that are no common word are members ("Prime", "Max" and "Signal" are left out).
 */
import { analyze, contentWords } from '../text/terms';

/** Parents, siblings and grandparents, as a family member or a relative is named by them. */
const CLOSE_RELATIONS = 'mom dad mother father parents brother brothers sister sisters grandma grandpa';
/** The relations outside the household a family member is also named by: "my cousin's wedding", "my aunt". */
const EXTENDED_FAMILY = 'cousin cousins aunt aunts uncle uncles niece nieces nephew nephews';

/**
 * The group words ("|" between them; a name may be two words) are matched as written, before stemming: a plural names the group ("my parents", "how many
 * kids"), while the singular of a relation names a role or a time ("became a parent", "when I was a kid"). A pet
 * and an instrument are the same thing in the singular ("my pet", "which instrument").
 */
const GROUPS: Array<[groups: string, members: string]> = [
  ['siblings', 'brother brothers sister sisters'],
  ['parents', 'mother mom mum father dad'],
  ['kids|children', 'son sons daughter daughters'],
  ['grandparents', 'grandmother grandma grandfather grandpa'],
  ['grandchildren|grandkids', 'grandson grandsons granddaughter granddaughters'],
  ['family members|family member', `fam kids children son sons daughter daughters husband wife ${CLOSE_RELATIONS} ${EXTENDED_FAMILY}`],
  // "relatives" in the plural only: "relative" is also an adjective ("relative humidity")
  ['relatives', `${CLOSE_RELATIONS} grandmother grandfather ${EXTENDED_FAMILY}`],
  // the occasions a family marks, named by what they are: "my cousin's wedding", "my nephew's graduation"
  ['life event|life events', 'wedding weddings engagement funeral funerals graduation birth retirement divorce christening baptism'],
  // the animals kept as pets, furred, feathered and scaled: "my turtles", "our snake Seraphim", "a guinea pig"
  ['pets|pet', 'dog dogs puppy puppies cat cats kitten kittens fish goldfish hamster hamsters rabbit rabbits bunny parrot budgie parakeet guinea ferret gerbil chinchilla hedgehog turtle turtles tortoise snake snakes lizard gecko iguana'],
  ['instruments|instrument', 'guitar piano violin cello drums ukulele flute saxophone trumpet clarinet harp keyboard'],
  ['weight|weigh|weighs|weighed', 'pound pounds lb lbs kilogram kilograms kg kilo kilos ounce ounces oz ton tons gram grams'],
  ['distance', 'mile miles kilometer kilometers kilometre kilometres km'],
  ['streaming', 'netflix hulu disney hbo crunchyroll paramount peacock spotify pandora tidal deezer soundcloud'],
  ['food delivery|delivery app|delivery apps|delivery service|delivery services', 'doordash grubhub uber postmates deliveroo instacart'],
  ['social media|social network|social networks', 'instagram facebook tiktok twitter snapchat linkedin pinterest reddit youtube'],
  ['ride sharing|ride hailing|rideshare', 'uber lyft'],
  ['messaging app|messaging apps', 'whatsapp telegram messenger wechat viber imessage'],
];

/** Group word → the stems of its members. */
const MEMBERS: ReadonlyMap<string, readonly string[]> = new Map(
  GROUPS.flatMap(([groups, members]) => {
    const stems = [...new Set(analyze(members))];
    return groups.split('|').map((g) => [g, stems] as const);
  }),
);

/**
 * What a member word found by its group weighs against a word of the query itself (its BM25 is multiplied by
 * it). 1: measured against 0.5 on both benchmarks (BENCHMARKS.md, 2026-11-29, twenty-fourth), 0.5 lost
 * LongMemEval's gains and kept LoCoMo's overall recall the same.
 */
export const GROUP_MEMBER_WEIGHT = 1;

/**
 * The query's stems (weight 1), then the member stems of every group it names (`GROUP_MEMBER_WEIGHT`, each once,
 * none the query already has): the terms `bm25Scores` matches, with their weights.
 */
export function withGroupMembers(query: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of analyze(query)) out.set(s, 1);
  const words = contentWords(query);
  words.forEach((w, i) => {
    const members = [...(MEMBERS.get(w) ?? []), ...(i + 1 < words.length ? (MEMBERS.get(`${w} ${words[i + 1]}`) ?? []) : [])];
    for (const m of members) if (!out.has(m)) out.set(m, GROUP_MEMBER_WEIGHT);
  });
  return out;
}
