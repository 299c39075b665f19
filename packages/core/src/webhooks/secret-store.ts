/**
 * Signing secrets at rest. An HMAC signer needs the secret itself, so it cannot be stored as a hash like our API
 * keys; it is encrypted with AES-256-GCM under a key derived (SHA-256) from MEMORY_WEBHOOK_SECRET_KEY. A database
 * dump alone does not reveal the secrets; the server process, which must sign, can always read them.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const derive = (keyMaterial: string) => createHash('sha256').update(`memory-webhook-secret:${keyMaterial}`).digest();

/** `iv.tag.ciphertext`, each base64url. */
export function encryptSecret(secret: string, keyMaterial: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', derive(keyMaterial), iv);
  const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
}

/** Throws when the key material is not the one the secret was encrypted with (GCM authenticates). */
export function decryptSecret(stored: string, keyMaterial: string): string {
  const [iv, tag, data] = stored.split('.').map((p) => Buffer.from(p, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', derive(keyMaterial), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
}
