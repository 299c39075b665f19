/**
 * The secret detector's validators (secrets.ts): checksums (Luhn, IBAN mod-97), structural checks for card
 * numbers and US SSNs, the entropy and character-class tests for unlabelled tokens, and the password-value guard.
 * Each takes the matched value and its position and returns the span to redact, or null for a false positive.
 */
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

export function validateCard(value: string, start: number): [number, number] | null {
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
export function validateIban(value: string, start: number, text: string): [number, number] | null {
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

export function validateSsn(value: string, start: number): [number, number] | null {
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

export function validateEntropy(value: string, start: number, text: string): [number, number] | null {
  if (value.length > 128) return null; // a blob (base64 paste, data URI), not a credential
  if (!isHighEntropyToken(value)) return null;
  if (decodesToText(value)) return null; // base64-encoded prose/data someone pasted, not a credential
  const chunk = chunkAround(text, start, start + value.length);
  if (chunk.includes('://') || /^\W*www\./i.test(chunk)) return null; // ids inside ordinary URLs
  return [start, start + value.length];
}

/** Needs a run of 16+ alphanumerics, so `sk-learn-tutorial-for-beginners` is not an OpenAI key. */
export function validateSkKey(value: string, start: number): [number, number] | null {
  return /[A-Za-z0-9]{16,}/.test(value.replace(/^sk-(?:ant-|proj-|svcacct-|admin-)?/, ''))
    ? [start, start + value.length]
    : null;
}

export function validateTokenLike(min: number) {
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

export function validatePassword(value: string, start: number): [number, number] | null {
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
