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
import {
  isHighEntropyToken,
  validateCard,
  validateEntropy,
  validateIban,
  validatePassword,
  validateSkKey,
  validateSsn,
  validateTokenLike,
} from './secret-validators';

export { ibanChecksumValid, isHighEntropyToken, luhnValid } from './secret-validators';

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
