/**
 * Where the core build step puts its outputs, packages/core/generated/ (the word vectors, the extraction thread's
 * bundle): beside these sources when run from them (tests, CLI, tsx); beside the running module when it is itself
 * a bundle in generated/ (the extraction thread); else found from the working directory upwards (the Next.js
 * server runs from apps/web in a bundle whose module URL is not a file).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function findGeneratedFile(name: string, cwd = process.cwd()): string | null {
  const candidates: string[] = [];
  try {
    const here = path.dirname(fileURLToPath(import.meta.url));
    candidates.push(path.resolve(here, '../generated', name), path.join(here, name));
  } catch {
    // bundled: import.meta.url is not a file URL
  }
  for (let dir = path.resolve(cwd), i = 0; i < 6; i++, dir = path.dirname(dir)) candidates.push(path.join(dir, 'packages/core/generated', name));
  return candidates.find((c) => existsSync(c)) ?? null;
}
