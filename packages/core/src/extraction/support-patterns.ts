/**
 * The wording the Customer Support schema recognises (docs/domain-schemas.md, "Customer Support"). Shared by
 * the built-in extractor, which under this schema also keeps problem and resolution reports that do not speak
 * about the user ("The export keeps failing."), and by the customer profile that reads the memories.
 */

/** A problem the customer reports: failures, errors, billing mistakes, lost access. */
export const PROBLEM =
  /\b(?:fail(?:s|ed|ing|ure)?|errors?|crash(?:es|ed|ing)?|broken|bugs?|buggy|freez(?:es|ing)|froze|frozen|hangs|not working|(?:does|did|is|are|was|were)n[o']?t (?:work|working|load|loading|sync|syncing|open|opening|arrive|arriving|show(?:ing)? up)|(?:can ?not|can't|cannot|couldn't|unable to) (?:log ?in|sign ?in|access|connect|find|open|load|export|import|download|upload|pay|cancel|reset|see|use|save|sync)|charged twice|double[- ]charged|overcharged|wrong (?:amount|charge|invoice|bill)|locked out|lost access|times? ?out|timing out|outage|(?:is|was|are) down|(?:too|very|really|extremely) slow|missing|disappeared|refund)\b/i;

/** A report that a problem went away. */
export const RESOLVED =
  /\b(?:works? (?:now|again|fine now|perfectly now)|is working (?:now|again)|(?:is|was|got|has been|have been|were) (?:fixed|resolved|solved|sorted(?: out)?)|(?:is|was) no longer (?:failing|broken|crashing|an issue|a problem)|refund (?:was|has been|is) (?:processed|issued|sent|received)|(?:received|got) (?:the|a|my) refund)\b/i;

/** An escalation: a manager, a complaint, a threat to leave. */
export const ESCALATION =
  /\b(?:escalat(?:e|ed|es|ing|ion)|(?:speak|talk) (?:to|with) (?:a|the|your) (?:manager|supervisor)|(?:a|the) (?:manager|supervisor)\b|(?:filed|file|lodged|made) (?:a|an) (?:formal )?complaint|chargeback|(?:will|wants? to|going to|threaten(?:s|ed)? to) (?:cancel|leave|switch (?:to|providers))|legal action)\b/i;

/** Ticket statuses (the source scope's `ticket_status`) that close a ticket's issues. */
export const CLOSED_TICKET_STATUSES = new Set(['solved', 'resolved', 'closed', 'done', 'fixed']);

/** Under the Customer Support schema the built-in extractor keeps such a sentence although it is not about the user. */
export const isSupportReport = (text: string): boolean => PROBLEM.test(text) || RESOLVED.test(text) || ESCALATION.test(text);
