/**
 * `@memory/core/browser`: what client components of the console and the consent app may import. Constants and
 * types only, from modules that load nothing of the server (no database, logger or Node built-ins), so a client
 * bundle never pulls in the domain.
 */
export { CATEGORY_LABELS, MEMORY_CATEGORIES, type MemoryCategory } from './categories';
export type { SupportStats } from './schemas/domains';
