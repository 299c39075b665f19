/**
 * English irregular verbs: the one list of their forms that extraction and ranking both read. Extraction needs the
 * simple pasts (an "I drew it" is not rewritten "draws it", extraction/third-person.ts; a capitalised past opens a
 * clause whose "I" was left out, extraction/dropped-subject.ts); ranking needs all the forms of a verb a question
 * names ("What did I buy?" finds "I bought", retrieval/verb-forms.ts). Before, each kept its own list, and the two
 * had drifted apart.
 *
 * One verb per row: base, simple past, past participle; a slash separates the spellings of one form ("burnt/burned").
 * A participle the same as the past is not written again. Verbs whose forms are all alike ("put", "cut", "read") are
 * not here: no form tells their tense (third-person.ts `AMBIGUOUS_PAST`).
 */

const TABLE = `
  arise arose arisen | awake awoke awoken | be was/were been | bear bore born/borne | become became become
  begin began begun | bend bent | bind bound | bite bit bitten | bleed bled | blow blew blown | break broke broken
  breed bred | bring brought | build built | burn burnt | buy bought | catch caught | choose chose chosen
  cling clung | come came come | creep crept | deal dealt | dig dug | dive dove | do did done | draw drew drawn
  dream dreamt | drink drank drunk | drive drove driven | dwell dwelt | eat ate eaten | fall fell fallen | feed fed
  feel felt | fight fought | find found | flee fled | fling flung | fly flew flown | forbid forbade forbidden
  forget forgot forgotten | forgive forgave forgiven | forsake forsook forsaken | freeze froze frozen | get got gotten
  give gave given | go went gone | grind ground | grow grew grown | hang hung | have had | hear heard | hide hid hidden
  hold held | keep kept | kneel knelt | know knew known | lay laid | lead led | lean leant | leap leapt | learn learnt
  leave left | lend lent | lie lay lain | light lit | lose lost | make made | mean meant | meet met
  overcome overcame overcome | pay paid | ride rode ridden | ring rang rung | rise rose risen | run ran run | say said
  see saw seen | seek sought | sell sold | send sent | shake shook shaken | shine shone | shoot shot | shrink shrank shrunk
  sing sang sung | sink sank sunk | sit sat | sleep slept | slide slid | sling slung | smell smelt | speak spoke spoken
  speed sped | spell spelt | spend spent | spill spilt | spin spun | spit spat | spring sprang sprung | stand stood
  steal stole stolen | stick stuck | sting stung | stink stank stunk | stride strode stridden | strike struck
  strive strove striven | swear swore sworn | sweep swept | swim swam swum | swing swung | take took taken
  teach taught | tear tore torn | tell told | think thought | throw threw thrown | tread trod trodden
  undergo underwent undergone | understand understood | wake woke woken | wear wore worn | weave wove woven
  weep wept | win won | wind wound | withdraw withdrew withdrawn | wring wrung | write wrote written
`;

export interface IrregularVerb {
  readonly base: string;
  /** The simple past, every spelling. */
  readonly past: readonly string[];
  /** The past participle, every spelling (the past's when it is the same). */
  readonly participle: readonly string[];
}

function parse(table: string): ReadonlyMap<string, IrregularVerb> {
  const out = new Map<string, IrregularVerb>();
  for (const row of table.split(/[|\n]/)) {
    const [base, past, participle] = row.trim().split(/\s+/);
    if (!base) continue;
    if (!past) throw new Error(`irregular verb "${base}" has no past`);
    out.set(base, { base, past: past.split('/'), participle: (participle ?? past).split('/') });
  }
  return out;
}

const VERBS = parse(TABLE);

/** The irregular verb whose base form is `base` (lower case), or undefined. */
export function irregularVerb(base: string): IrregularVerb | undefined {
  return VERBS.get(base);
}

/** Every simple past of the table that is not also its verb's base ("came", not "come"; "ran", not "run"). */
export const IRREGULAR_PASTS: ReadonlySet<string> = new Set(
  [...VERBS.values()].flatMap((v) => v.past.filter((p) => p !== v.base)),
);
