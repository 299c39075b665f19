/**
 * The one Drizzle schema, shared by PostgreSQL (postgres.js) and PGlite, one file per area.
 * Every tenant-owned row carries `tenant_id`; every query in the domain filters on it.
 * Memories keep world time (`observed_at`) apart from system time (`created_at`, `updated_at`).
 */
import type { adminUsers } from './console';
import type { extractionJobs, sourceEvents } from './ingestion';
import type { claimRevisions, entities, memories, pendingCandidates, reviews } from './memories';
import type { globalAgents, grants, passportUsers, universalJobs, universalMemories } from './passport';
import type { retrievalFeedback } from './retrieval';
import type { apiKeys, endUsers, serviceWriters, tenants } from './tenants';
import type { webhookDeliveries, webhookEndpoints } from './webhooks';
import type { userErasures } from './erasure';

export * from './enums';
export { tenants, apiKeys, serviceWriters, endUsers } from './tenants';
export * from './quota';
export * from './ingestion';
export * from './memories';
export * from './retrieval';
export * from './console';
export { globalAgents, passportUsers, linkTokens, passportConnections, grants, uuiTokens, universalMemories, universalJobs, passportReviews, passportAudit, passportAccessLog } from './passport';
export * from './webhooks';
export * from './erasure';

export type Tenant = typeof tenants.$inferSelect;
export type ApiKey = typeof apiKeys.$inferSelect;
export type EndUser = typeof endUsers.$inferSelect;
export type ServiceWriter = typeof serviceWriters.$inferSelect;
export type Review = typeof reviews.$inferSelect;
export type AdminUser = typeof adminUsers.$inferSelect;
export type SourceEvent = typeof sourceEvents.$inferSelect;
export type ExtractionJob = typeof extractionJobs.$inferSelect;
export type Memory = typeof memories.$inferSelect;
export type Entity = typeof entities.$inferSelect;
export type PendingCandidate = typeof pendingCandidates.$inferSelect;
export type RetrievalFeedback = typeof retrievalFeedback.$inferSelect;
export type GlobalAgent = typeof globalAgents.$inferSelect;
export type PassportUser = typeof passportUsers.$inferSelect;
export type Grant = typeof grants.$inferSelect;
export type UniversalMemory = typeof universalMemories.$inferSelect;
export type UniversalJob = typeof universalJobs.$inferSelect;
export type ClaimRevision = typeof claimRevisions.$inferSelect;
export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
export type UserErasure = typeof userErasures.$inferSelect;
