import { sha256Hex } from '../crypto';

/** The same fact said twice, with other casing or punctuation, gets the same fingerprint. */
export function memoryFingerprint(content: string): string {
  const normalised = content
    .toLowerCase()
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return sha256Hex(normalised).slice(0, 32);
}
