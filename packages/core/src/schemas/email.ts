/** E-mail addresses as the console and the passport take them: trimmed, lower-cased, at most 254 characters. */
import { z } from 'zod';

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

export const adminEmail = z
  .string()
  .trim()
  .max(254, 'must be at most 254 characters')
  .email('must be an e-mail address')
  .transform(normalizeEmail);
