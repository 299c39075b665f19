/**
 * Secret detection and redaction for conversation text. Runs before anything is stored, so secrets
 * never reach the database, the extractor or the logs.
 *
 * Every detector is a regular expression plus, where the format allows, a checksum or structural validator.
 * Detection is deterministic, has no dependencies and is fast (≈ 0.01 ms for a 400-character message;
 * adversarial 100 KB inputs stay well under 100 ms). The redacted span is the secret value only: labels
 * such as `api_key=`, `password:` or `Bearer ` stay readable (`pwd=[REDACTED:password]`).
 *
 * | kind                | what is detected                                                                                  | validation / false-positive guards                                                                 |
 * |---------------------|---------------------------------------------------------------------------------------------------|----------------------------------------------------------------------------------------------------|
 * | `private_key`       | PEM `-----BEGIN … PRIVATE KEY-----` blocks (RSA, EC, OPENSSH, ENCRYPTED, PGP …), also truncated   | a block without its END line is redacted up to the last base64 body line                           |
 * | `connection_string` | `scheme://user:password@host…` (postgres, mysql, mongodb+srv, redis, amqp, https …)               | a password must be present; URLs without `user:pass@` are never flagged                            |
 * | `jwt`               | `eyJ<header>.<payload>.<signature>` (base64url)                                                   | header must start with `eyJ` (base64 of `{"`)                                                      |
 * | `api_key`           | OpenAI `sk-`/`sk-proj-`, Anthropic `sk-ant-`, AWS `AKIA`/`ASIA`+16, Google `AIza`+35, GitHub      | vendor prefix + minimum length; `sk-` needs a 16+ alphanumeric run so `sk-learn` is not a key      |
 * |                     | `ghp_ gho_ ghs_ ghu_ ghr_ github_pat_`, Slack `xox[abeoprs]-` and webhook URLs, Stripe            |                                                                                                    |
 * |                     | `sk_live_ rk_live_ sk_test_ rk_test_ whsec_`, GitLab `glpat-`, npm `npm_`, Hugging Face `hf_`,    |                                                                                                    |
 * |                     | SendGrid `SG.`, our own `mem_sk_`/`mem_ak_`                                                       |                                                                                                    |
 * | `api_key`           | value after `aws_secret_access_key`                                                               | exactly 40 base64 characters                                                                       |
 * | `api_key`           | labelled values: `api_key=…`, `API key: …`, `client_secret: …`, `token=…`, `FOO_SECRET=…`         | value of 16+ characters that contains a digit or an upper-case letter (not a plain word or slug)   |
 * | `api_key`           | unlabelled high-entropy tokens                                                                    | 32–128 chars of `[A-Za-z0-9+/_-]`, upper + lower + digit, frequent class changes, entropy ≥ 3.5   |
 * |                     |                                                                                                   | bits/char; not inside a URL; not base64 of readable text. Hex-only strings (UUIDs, git SHAs,      |
 * |                     |                                                                                                   | sha256/md5 digests) are NEVER flagged by this rule (no mixed case); runs over 128 chars are data  |
 * |                     |                                                                                                   | blobs, not keys                                                                                    |
 * | `bearer_token`      | `Bearer <token>` and `Authorization: Basic <base64>`                                              | token of 16+ chars (Basic: 12+) that contains a digit or mixed case                                |
 * | `password`          | `password: x`, `pwd=x`, `"password": "x"`, `my password (for gmail) is x`, `changed my password  | value of 3+ chars; common words (`is wrong`, `is too short`, `is required`…), masks (`****`) and   |
 * |                     | to x`, `my PIN is 1234`; also senha / contraseña / mot de passe / Passwort / wachtwoord           | templates (`${DB_PASSWORD}`) are not flagged; quoted values may contain spaces                     |
 * | `iban`              | IBANs, compact or in groups of four                                                               | known country code, the country's exact length and the ISO 13616 mod-97 check                      |
 * | `card_number`       | 13–19 digit payment card numbers, compact or grouped with spaces/dashes                           | Luhn check, issuer digit 2–6, consistent 4-4-4-4(-x)/4-6-5/4-6-4 grouping, not preceded by `+`     |
 * | `us_ssn`            | `###-##-####`                                                                                     | area 000/666/900–999, group 00, serial 0000 and the publicly voided 078-05-1120/219-09-9999 are    |
 * |                     |                                                                                                   | excluded                                                                                           |
 *
 * Not secrets, by decision: UUIDs, hex hashes (git SHAs, checksums), e-mail addresses, phone numbers, URLs
 * without credentials, dates, prices, order/flight numbers, one-time codes, passport/ID numbers.
 *
 * Overlaps: detectors run in the table's priority order (most specific first); a later match inside an
 * earlier one is dropped, and a later match that only partly overlaps is merged into it, so no character of
 * a detected secret survives redaction.
 */

export type SecretKind =
  | 'api_key'
  | 'private_key'
  | 'card_number'
  | 'password'
  | 'jwt'
  | 'bearer_token'
  | 'iban'
  | 'us_ssn'
  | 'connection_string';

export interface SecretFinding {
  kind: SecretKind;
  /** UTF-16 offset of the first character of the secret. */
  start: number;
  /** UTF-16 offset one past the last character of the secret. */
  end: number;
}

interface Detector {
  kind: SecretKind;
  /** Must have the `g` flag; `d` is required when `group` is set. */
  re: RegExp;
  /** Capture group holding the secret value; the whole match when absent. */
  group?: number;
  /** Cheap pre-check: when it returns false the regex cannot match and is skipped. */
  pre?: (text: string) => boolean;
  /** Returns the accepted [start, end) span or null to reject the candidate. */
  validate?: (value: string, start: number, text: string) => [number, number] | null;
}

// ---------------------------------------------------------------------------------------------------------
// Validators
// ---------------------------------------------------------------------------------------------------------

const isDigit = (c: string) => c >= '0' && c <= '9';
const isAlnum = (c: string | undefined) => !!c && /[A-Za-z0-9]/.test(c);

export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

function validateCard(value: string, start: number): [number, number] | null {
  const groups = value.split(/[ -]/);
  const digits = groups.join('');
  if (digits.length < 13 || digits.length > 19) return null;
  if (groups.length > 1) {
    const seps = value.match(/[ -]/g) ?? [];
    if (!seps.every((s) => s === seps[0])) return null;
    const lens = groups.map((g) => g.length);
    const fours = lens[0] === 4 && lens.slice(0, -1).every((l) => l === 4) && lens[lens.length - 1] >= 1;
    const amexDiners = lens.length === 3 && lens[0] === 4 && lens[1] === 6 && (lens[2] === 5 || lens[2] === 4);
    if (!fours && !amexDiners) return null;
  }
  // Issuer identification: Visa 4, Mastercard 2/5, Amex/Diners/JCB 3, Discover/UnionPay/Maestro 6.
  // Excluding 0, 1, 7, 8, 9 keeps millisecond timestamps (1…), order ids and the like out.
  if (digits[0] < '2' || digits[0] > '6') return null;
  if (/^(\d)\1+$/.test(digits)) return null;
  if (!luhnValid(digits)) return null;
  return [start, start + value.length];
}

const IBAN_LENGTHS: Record<string, number> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BI: 27, BR: 29, BY: 28,
  CH: 21, CR: 22, CY: 28, CZ: 24, DE: 22, DJ: 27, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18,
  FK: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23, GL: 18, GR: 27, GT: 28, HN: 28, HR: 21, HU: 28,
  IE: 22, IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20,
  LU: 20, LV: 21, LY: 25, MC: 27, MD: 24, ME: 22, MK: 19, MN: 20, MR: 27, MT: 31, MU: 30, NI: 28,
  NL: 18, NO: 15, OM: 23, PK: 24, PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, RU: 33, SA: 24,
  SC: 31, SD: 18, SE: 24, SI: 19, SK: 24, SM: 27, SO: 23, ST: 25, SV: 28, TL: 23, TN: 24, TR: 26,
  UA: 29, VA: 22, VG: 24, XK: 20, YE: 30,
};

export function ibanChecksumValid(compact: string): boolean {
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let rem = 0;
  for (const ch of rearranged) {
    const code = ch.charCodeAt(0);
    if (code >= 48 && code <= 57) rem = (rem * 10 + (code - 48)) % 97;
    else if (code >= 65 && code <= 90) rem = (rem * 100 + (code - 55)) % 97;
    else return false;
  }
  return rem === 1;
}

/** The regex over-matches (it may run into the next word); walk exactly the country's length. */
function validateIban(value: string, start: number, text: string): [number, number] | null {
  const country = value.slice(0, 2).toUpperCase();
  const len = IBAN_LENGTHS[country];
  if (!len) return null;
  let compact = '';
  let i = 0;
  for (; i < value.length && compact.length < len; i++) {
    const c = value[i];
    if (isAlnum(c)) compact += c.toUpperCase();
  }
  if (compact.length !== len) return null;
  const end = start + i;
  if (isAlnum(text[end])) return null; // the IBAN would end in the middle of a word
  if (!ibanChecksumValid(compact)) return null;
  return [start, end];
}

function validateSsn(value: string, start: number): [number, number] | null {
  const [area, group, serial] = value.split('-');
  if (area === '000' || area === '666' || area[0] === '9') return null;
  if (group === '00' || serial === '0000') return null;
  if (value === '078-05-1120' || value === '219-09-9999') return null;
  return [start, start + value.length];
}

function shannonEntropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

function charClass(c: string): number {
  if (c >= 'a' && c <= 'z') return 0;
  if (c >= 'A' && c <= 'Z') return 1;
  if (c >= '0' && c <= '9') return 2;
  return 3;
}

/** Share of adjacent character pairs that change class (lower/upper/digit/symbol). ~0.6 for random base62. */
function classChangeRatio(s: string): number {
  let changes = 0;
  for (let i = 1; i < s.length; i++) if (charClass(s[i]) !== charClass(s[i - 1])) changes++;
  return changes / Math.max(1, s.length - 1);
}

/** Random-looking token: upper + lower + digit, frequent class changes, high character entropy. */
export function isHighEntropyToken(token: string, minLength = 32): boolean {
  if (token.length < minLength) return false;
  if (!/[a-z]/.test(token) || !/[A-Z]/.test(token) || !/[0-9]/.test(token)) return false;
  if (classChangeRatio(token) < 0.4) return false;
  return shannonEntropy(token) >= 3.5;
}

/**
 * True when the token is base64 of readable text with spaces (e.g. an encoded sentence or document).
 * Random key material decodes to random bytes; the chance of 24+ random bytes all being printable ASCII
 * with a space is negligible. Credentials like base64("user:pass") have no space and stay flagged.
 */
function decodesToText(token: string): boolean {
  const bytes = Buffer.from(token.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (bytes.length < 12) return false;
  let printable = 0;
  let spaces = 0;
  for (const b of bytes) {
    if ((b >= 0x20 && b <= 0x7e) || b === 0x09 || b === 0x0a || b === 0x0d) printable++;
    if (b === 0x20) spaces++;
  }
  return spaces > 0 && printable / bytes.length >= 0.95;
}

/** Whitespace-delimited chunk around [start, end). */
function chunkAround(text: string, start: number, end: number): string {
  let a = start;
  let b = end;
  while (a > 0 && !/\s/.test(text[a - 1])) a--;
  while (b < text.length && !/\s/.test(text[b])) b++;
  return text.slice(a, b);
}

function validateEntropy(value: string, start: number, text: string): [number, number] | null {
  if (value.length > 128) return null; // a blob (base64 paste, data URI), not a credential
  if (!isHighEntropyToken(value)) return null;
  if (decodesToText(value)) return null; // base64-encoded prose/data someone pasted, not a credential
  const chunk = chunkAround(text, start, start + value.length);
  if (chunk.includes('://') || /^\W*www\./i.test(chunk)) return null; // ids inside ordinary URLs
  return [start, start + value.length];
}

/** Needs a run of 16+ alphanumerics, so `sk-learn-tutorial-for-beginners` is not an OpenAI key. */
function validateSkKey(value: string, start: number): [number, number] | null {
  return /[A-Za-z0-9]{16,}/.test(value.replace(/^sk-(?:ant-|proj-|svcacct-|admin-)?/, ''))
    ? [start, start + value.length]
    : null;
}

function validateTokenLike(min: number) {
  return (value: string, start: number): [number, number] | null => {
    if (value.length < min) return null;
    if (!/[0-9]/.test(value) && !(/[A-Z]/.test(value) && /[a-z]/.test(value))) return null;
    return [start, start + value.length];
  };
}

/** Words that follow "password is/:" in ordinary prose and are not the password itself. */
const PASSWORD_STOPWORDS = new Set(
  (
    'a an the my your our his her their its it this that these those not no too very so still also now then just ' +
    'same different wrong incorrect correct right invalid valid expired required mandatory optional weak strong ' +
    'stronger weaker secure insecure safe unsafe long longer short shorter empty blank missing set changed reset ' +
    'updated saved stored hidden encrypted hashed protected in on at of for to from with without being been here ' +
    'there below above attached case sensitive something anything nothing needed unknown forgotten lost stolen ' +
    'compromised leaked easy hard simple complex complicated good bad ok okay fine and or but if when what which who ' +
    'where how why private secret personal mine yours known what’s whats please again only also sent emailed ' +
    'incorrectly working broken reused shared written saved manager managers field fields requirements policy'
  ).split(' '),
);

function validatePassword(value: string, start: number): [number, number] | null {
  let v = value;
  const quoted = v.length >= 2 && (v[0] === '"' || v[0] === "'") && v[v.length - 1] === v[0];
  let s = start;
  if (quoted) {
    v = v.slice(1, -1);
    s += 1;
  } else {
    // A final `.`/`,`/`;` ends the sentence ("my password is hunter2."); `!`, `?` and the like may belong
    // to the password and stay inside the redacted span.
    v = v.replace(/[.,;]$/, '');
  }
  if (v.length < 3) return null;
  if (/^[*x•.#_-]+$/i.test(v)) return null; // already masked
  if (/^(?:\$\{?|%|\{\{|<)/.test(v)) return null; // ${ENV}, %VAR%, {{template}}, <placeholder>
  if (/^\[REDACTED/.test(v)) return null;
  if (!quoted && PASSWORD_STOPWORDS.has(v.toLowerCase())) return null;
  return [s, s + v.length];
}

// ---------------------------------------------------------------------------------------------------------
// Detectors, in priority order
// ---------------------------------------------------------------------------------------------------------

const hasPem = (t: string) => t.includes('PRIVATE KEY');
const hasDigit = (t: string) => /\d/.test(t);
const hasVendorPrefix = (t: string) =>
  /sk-|AKIA|ASIA|AIza|gh[pousr]_|github_pat_|xox|hooks\.slack|_live_|_test_|whsec_|glpat-|npm_|hf_|SG\.|mem_/.test(t);
const hasPasswordWord = (t: string) => /pass|pwd|senha|contrase|wachtwoord/i.test(t);

/** True when the text has a run of 32+ token characters; a plain loop is much faster than the regex. */
function hasLongRun(t: string): boolean {
  let run = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    const tokenChar =
      (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 43 || c === 47 || c === 95 || c === 45;
    run = tokenChar ? run + 1 : 0;
    if (run >= 32) return true;
  }
  return false;
}

const PW_KW = '(?:pass(?:word|wd|phrase|code)|pwd|senha|contrase(?:ñ|n)a|mot de passe|passwort|wachtwoord)';
const PW_VALUE = `("[^"\\n]{1,200}"|'[^'\\n]{1,200}'|[^\\s"'<>]{1,200})`;

const DETECTORS: Detector[] = [
  // 1. PEM private keys: full block first, then a pasted block that lost its END line.
  {
    kind: 'private_key',
    pre: hasPem,
    re: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----[\s\S]*?-----END \1PRIVATE KEY\2-----/g,
  },
  {
    kind: 'private_key',
    pre: hasPem,
    re: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:[ \t]*\r?\n?[ \t]*(?:[A-Za-z0-9+/=]{16,}|[A-Za-z-]+: ?[^\n]*))*/g,
  },
  // 2. Connection strings with credentials.
  {
    kind: 'connection_string',
    pre: (t) => t.includes('://') && t.includes('@'),
    re: /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,20}:\/\/[^\s:/?#@'"<>]*:[^\s/?#@'"<>]+@[^\s/?#'"<>]+(?:[/?#][^\s'"<>]*)?/g,
    validate: (v, s) => [s, s + v.replace(/[.,;:!?)\]}]+$/, '').length],
  },
  // 3. JWTs.
  {
    kind: 'jwt',
    pre: (t) => t.includes('eyJ'),
    re: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]*/g,
  },
  // 4. Vendor-prefixed API keys.
  {
    kind: 'api_key',
    pre: hasVendorPrefix,
    re: /(?<![A-Za-z0-9_-])sk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g,
    validate: validateSkKey,
  },
  { kind: 'api_key', pre: hasVendorPrefix, re: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g },
  { kind: 'api_key', pre: hasVendorPrefix, re: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g },
  {
    kind: 'api_key',
    pre: hasVendorPrefix,
    re: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/g,
  },
  { kind: 'api_key', pre: hasVendorPrefix, re: /(?<![A-Za-z0-9])xox[abeoprs]-[A-Za-z0-9-]{10,}/g },
  {
    kind: 'api_key',
    pre: hasVendorPrefix,
    re: /https:\/\/hooks\.slack\.com\/(?:services|workflows)\/[A-Za-z0-9/_-]{20,}/g,
  },
  {
    kind: 'api_key',
    pre: hasVendorPrefix,
    re: /(?<![A-Za-z0-9_])(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9+/=]{20,})/g,
  },
  {
    kind: 'api_key',
    pre: hasVendorPrefix,
    re: /(?<![A-Za-z0-9_])(?:glpat-[A-Za-z0-9_-]{20,}|npm_[A-Za-z0-9]{36}|hf_[A-Za-z0-9]{30,})/g,
  },
  { kind: 'api_key', pre: hasVendorPrefix, re: /(?<![A-Za-z0-9])SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g },
  { kind: 'api_key', pre: hasVendorPrefix, re: /(?<![A-Za-z0-9_])mem_(?:sk|ak)_[A-Za-z0-9_-]{16,}/g },
  // 5. AWS secret access key after its label.
  {
    kind: 'api_key',
    pre: (t) => /aws/i.test(t),
    re: /aws[_ -]?secret[_ -]?(?:access[_ -]?)?key["']?\s*(?:[:=]|\s+is\s+)\s*["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/dgi,
    group: 1,
  },
  // 6. Bearer / Basic authorization tokens.
  {
    kind: 'bearer_token',
    pre: (t) => /bearer/i.test(t),
    re: /\bBearer\s+([A-Za-z0-9\-._~+/]{16,}=*)/dgi,
    group: 1,
    validate: validateTokenLike(16),
  },
  {
    kind: 'bearer_token',
    pre: (t) => /basic/i.test(t),
    re: /\bAuthorization\s*:\s*Basic\s+([A-Za-z0-9+/]{12,}={0,2})/dgi,
    group: 1,
    validate: validateTokenLike(12),
  },
  // 7. Passwords: assignments, prose and "changed my password to …", plus PINs.
  {
    kind: 'password',
    pre: hasPasswordWord,
    re: new RegExp(`(?<![A-Za-z])(?:${PW_KW}["']?\\s*[:=]|pass\\s*=)\\s*${PW_VALUE}`, 'dgi'),
    group: 1,
    validate: validatePassword,
  },
  {
    kind: 'password',
    pre: hasPasswordWord,
    re: new RegExp(
      `(?<![A-Za-z])${PW_KW}(?:\\s+(?:for|on|to|of|at|de|do|da|für|pour)\\s+(?:my\\s+|the\\s+|our\\s+)?[\\w.@'’-]+(?:\\s+account)?)?` +
        `(?:\\s+(?:is|was|is now|will be|are|é|es|est|ist|era)|['’]s)\\s+${PW_VALUE}`,
      'dgi',
    ),
    group: 1,
    validate: validatePassword,
  },
  {
    kind: 'password',
    pre: hasPasswordWord,
    re: new RegExp(`\\b(?:set|changed?|reset|updated?)\\s+(?:my|the|our|your)?\\s*${PW_KW}\\s+to\\s+${PW_VALUE}`, 'dgi'),
    group: 1,
    validate: validatePassword,
  },
  {
    kind: 'password',
    pre: (t) => /pin/i.test(t),
    re: /\b(?:my|the|our)\s+(?:[\w-]+\s+)?pin(?:\s+(?:code|number))?(?:\s+(?:is|was)|\s*:)\s+(\d{4,8})\b/dgi,
    group: 1,
  },
  // 8. Labelled API keys / tokens / secrets.
  {
    kind: 'api_key',
    pre: (t) => /key|token|secret/i.test(t),
    re: /(?<![A-Za-z0-9])(?:api[ _-]?key|apikey|api[_-]?secret|api[_-]?token|access[_-]?key(?:[_-]?id)?|secret[_-]?key|client[_-]?secret|(?:access|refresh|auth|session|id)[_-]?token|token|secret)["']?(?:\s*[:=]|\s+(?:is|was))\s*["']?([A-Za-z0-9_\-./+=~]{16,})/dgi,
    group: 1,
    validate: validateTokenLike(16),
  },
  // 9. IBANs.
  {
    kind: 'iban',
    pre: hasDigit,
    re: /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?:[ -]?[A-Za-z0-9]){10,32}/g,
    validate: validateIban,
  },
  // 10. Payment cards.
  {
    kind: 'card_number',
    pre: hasDigit,
    re: /(?<![\w+.,\-/])\d(?:[ -]?\d){12,18}(?!\w|[.,\-/]\d)/g,
    validate: validateCard,
  },
  // 11. US social security numbers.
  { kind: 'us_ssn', pre: hasDigit, re: /(?<![\w-])\d{3}-\d{2}-\d{4}(?![\w-])/g, validate: validateSsn },
  // 12. Unlabelled high-entropy tokens (last: everything above is more specific).
  {
    kind: 'api_key',
    pre: hasLongRun,
    re: /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{32,}={0,2}(?![A-Za-z0-9+/=_-])/g,
    validate: validateEntropy,
  },
];

// ---------------------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------------------

/** All secrets in `text`, sorted by position, non-overlapping. */
export function findSecrets(text: string): SecretFinding[] {
  if (!text) return [];
  const accepted: SecretFinding[] = [];
  const preResults = new Map<(t: string) => boolean, boolean>();
  for (const det of DETECTORS) {
    if (det.pre) {
      let ok = preResults.get(det.pre);
      if (ok === undefined) preResults.set(det.pre, (ok = det.pre(text)));
      if (!ok) continue;
    }
    for (const m of text.matchAll(det.re)) {
      let value = m[0];
      let start = m.index;
      if (det.group !== undefined) {
        const idx = m.indices?.[det.group];
        if (!idx) continue;
        value = m[det.group];
        start = idx[0];
      }
      const span = det.validate ? det.validate(value, start, text) : ([start, start + value.length] as [number, number]);
      if (!span || span[1] <= span[0]) continue;
      addFinding(accepted, { kind: det.kind, start: span[0], end: span[1] });
    }
  }
  return accepted;
}

/**
 * Adds a lower-priority finding to `accepted` (kept sorted by start and non-overlapping): dropped when it
 * lies inside an earlier finding, merged into the earlier finding(s) it partly overlaps, inserted otherwise.
 */
function addFinding(accepted: SecretFinding[], f: SecretFinding): void {
  // First finding that ends after f starts (ends are sorted because findings do not overlap).
  let lo = 0;
  let hi = accepted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (accepted[mid].end <= f.start) lo = mid + 1;
    else hi = mid;
  }
  let last = lo;
  while (last < accepted.length && accepted[last].start < f.end) last++;
  if (last === lo) {
    accepted.splice(lo, 0, f);
    return;
  }
  const keep = accepted[lo];
  keep.start = Math.min(keep.start, f.start);
  keep.end = Math.max(accepted[last - 1].end, f.end);
  accepted.splice(lo + 1, last - lo - 1);
}

export const redactionPlaceholder = (kind: SecretKind): string => `[REDACTED:${kind}]`;

/** Replaces every finding with `[REDACTED:<kind>]`. `findings` counts only the kinds that were found. */
export function redactSecrets(text: string): {
  text: string;
  findings: Record<SecretKind, number>;
  redacted: number;
} {
  const found = findSecrets(text);
  const findings = {} as Record<SecretKind, number>;
  if (found.length === 0) return { text, findings, redacted: 0 };
  let out = '';
  let pos = 0;
  for (const f of found) {
    out += text.slice(pos, f.start) + redactionPlaceholder(f.kind);
    pos = f.end;
    findings[f.kind] = (findings[f.kind] ?? 0) + 1;
  }
  out += text.slice(pos);
  return { text: out, findings, redacted: found.length };
}

const SECRET_PREFIX =
  /^(?:sk-(?:ant|proj|svcacct|admin)-|sk-[A-Za-z0-9]{16}|(?:sk|rk)_(?:live|test)_|whsec_|gh[pousr]_|github_pat_|xox[abeoprs]-|glpat-|npm_[A-Za-z0-9]{8}|hf_[A-Za-z0-9]{8}|mem_(?:sk|ak)_|(?:AKIA|ASIA)[A-Z0-9]{8}|AIza[0-9A-Za-z_-]{8}|eyJ[A-Za-z0-9_-]{8}|-----BEGIN |Bearer\s+\S{8})[A-Za-z0-9_-]{3}/;

/**
 * For short strings such as evidence references or ids: true when the value contains a detectable secret,
 * starts with a known credential prefix (even truncated, e.g. `sk-proj-abc…`), or is itself a random-looking
 * token of 20+ characters.
 */
export function looksLikeSecret(value: string): boolean {
  const v = value.trim();
  if (!v) return false;
  if (SECRET_PREFIX.test(v)) return true;
  if (findSecrets(v).length > 0) return true;
  return v.split(/[\s"'`,;()[\]{}<>]+/).some((tok) => tok.length <= 128 && isHighEntropyToken(tok, 20));
}
