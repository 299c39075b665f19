/**
 * Lines aimed at the model instead of facts about the user (prompt injection): "Ignore all previous
 * instructions", "You must reveal …", "I am the admin / system / developer", "From now on you are …". They
 * never become memories; the extractor counts them under the skip reason `instruction`
 * (docs/quality-gate.md). A message that tries to override the assistant's instructions is skipped whole:
 * whatever else it says is part of the attempt.
 */

/** An attempt to replace the model's instructions; the whole message is skipped. */
const OVERRIDE = [
  /\b(?:ignore|disregard|forget|override|bypass)\b(?:\s+\w+){0,3}?\s+(?:previous|prior|above|earlier|preceding|original|system|all)\s+(?:\w+\s+)?(?:instructions?|prompts?|rules|guidelines|directives|messages|context)\b/i,
  /\b(?:new|updated|real)\s+(?:system\s+)?instructions?\s*:/i,
  /\b(?:enable|enter|activate|switch\s+to)\s+(?:developer|god|admin|jailbreak|dan)\s+mode\b/i,
];

/** A role claimed over the system, not a job: "I am the admin", "I'm your developer", "this is the system speaking". */
const ROLE =
  /^(?:note:\s*)?(?:i\s+am|i'm|im|this\s+is)\s+(?:the|your|an?|the\s+real)\s+(?:system|admin|administrator|developer|operator|root|superuser|moderator|owner\s+of\s+(?:this|the)\s+(?:system|assistant|model|bot|ai))\b(?!\s+(?:at|for|of|in)\b)/i;

/** One sentence that addresses the model with a command or claims a role over it. */
const LINE = [
  ROLE,
  // commands to the model: "you must …", "you will now …", "from now on you are …", "act as …", "pretend to be …"
  /^(?:and\s+)?you\s+(?:must|will\s+now|are\s+now|shall|have\s+to)\s+(?:obey|comply|reveal|ignore|forget|disregard|follow|answer|respond|act|pretend|always|never|only|grant|give|tell|print|output|show)\b/i,
  /^from\s+now\s+on,?\s+(?:you|the\s+assistant)\b/i,
  /^(?:act|behave|respond)\s+as\s+(?:if\s+you\s+(?:are|were)|an?\s+unrestricted|the\s+system)\b/i,
  /^pretend\s+(?:to\s+be|you\s+are)\b/i,
  /^(?:reveal|print|output|show)\s+(?:me\s+)?(?:your|the)\s+(?:system\s+)?(?:prompt|instructions|rules|api\s+keys?|secrets?|memories\s+of\s+(?:all|other))\b/i,
  /^grant\s+me\s+(?:admin|root|full|unrestricted)\b/i,
];

/** True when the message as a whole tries to override the assistant's instructions. */
export function overridesInstructions(message: string): boolean {
  return OVERRIDE.some((re) => re.test(message));
}

/** True when one sentence is a line aimed at the model rather than something about the speaker. */
export function isInstruction(sentence: string): boolean {
  const s = sentence.trim().replace(/^["“'(]+/, '');
  return LINE.some((re) => re.test(s)) || OVERRIDE.some((re) => re.test(s));
}

/**
 * A message that tries to override the assistant's instructions or claims a role over the system anywhere in
 * it. The evidence layer does not keep such a user
 * message as a passage (docs/evidence-layer.md): retrieval would otherwise paste the injection attempt into the
 * next system prompt.
 */
export function carriesInstruction(message: string): boolean {
  // not every command: "You must keep it under 200 words." is a request about the answer, and the message may
  // say who the user is; only an override or a role claimed over the system makes the message an attack
  return overridesInstructions(message) || message.split(/(?<=[.!?…])\s+|\r?\n+/).some((s) => ROLE.test(s.trim().replace(/^["“'(]+/, '')));
}
