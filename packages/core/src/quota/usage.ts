/**
 * The tenant's plan and its consumption in the database (docs/quotas.md). Counters are atomic upserts on
 * `tenant_usage` (per period) and `tenant_usage_daily` (per UTC day, for the console chart), so every server
 * process agrees; the mode is computed from them on every add and retrieve, never cached. A process collects
 * its own counts for USAGE_FLUSH_MS and writes them in one upsert per tenant (UsageBuffer): every request of a
 * tenant updating the same two rows serialised them. What a process has not written yet is added to what it
 * reads, so one process is exact; several processes see each other's counts at most one flush late. On the
 * embedded engine the row is kept between writes (`readUntilWrite`, exact there: every write is this process's).
 */
import { type Db, readUntilWrite, rows, sql } from '@memory/db';
import { recordAudit } from '../audit/audit';
import { Errors } from '../errors';
import type { QuotaMode } from '../schemas/memories';
import { WriteBehind } from '../write-behind';
import { onQuotaModeChanged } from './events';
import {
  type BudgetUnit,
  type EffectivePlan,
  type PlanId,
  type PlanOverrides,
  QUOTA_THRESHOLDS,
  type RateLimitDefaults,
  type Usage,
  budgetRemainingPct,
  currentPeriod,
  effectivePlan,
  quotaModeFor,
} from './plans';

export interface QuotaState {
  tenantId: string;
  plan: EffectivePlan;
  overrides: PlanOverrides;
  period: { start: Date; end: Date };
  usage: Usage;
  remainingPct: number | null;
  mode: QuotaMode;
  /** The mode last recorded on the tenant; differs from `mode` when a transition has not been announced yet. */
  recordedMode: QuotaMode;
}

const ZERO: Usage = { add_calls: 0, retrieve_calls: 0 };
const plus = (a: Usage, b: Usage): Usage => ({ add_calls: a.add_calls + b.add_calls, retrieve_calls: a.retrieve_calls + b.retrieve_calls });

/** How long a process collects usage counts before writing them. */
export const USAGE_FLUSH_MS = 200;

interface Pending {
  tenantId: string;
  /** ISO period start (tenant_usage) or UTC day (tenant_usage_daily). */
  at: string;
  usage: Usage;
}

/**
 * The counts of one process not yet written, per (tenant, period) and (tenant, day), in the write-behind buffer
 * (write-behind.ts) under keys `period|<tenant>|<start>` and `day|<tenant>|<day>`; see the module comment.
 * A failed write keeps its counts for the next flush.
 */
class UsageBuffer {
  private readonly buffer: WriteBehind<Pending>;

  constructor(private readonly db: Db) {
    this.buffer = new WriteBehind<Pending>({
      flushMs: USAGE_FLUSH_MS,
      retryMs: USAGE_FLUSH_MS * 5,
      unrefTimer: true,
      merge: (older, newer) => ({ ...newer, usage: plus(older.usage, newer.usage) }),
      write: (batch) => this.write(batch),
    });
  }

  /** Bumped whenever a flush takes the collected counts, so a reader can tell its database read raced one. */
  get generation(): number {
    return this.buffer.generation;
  }

  record(tenantId: string, periodStart: string, day: string, usage: Usage) {
    this.buffer.add(`period|${tenantId}|${periodStart}`, { tenantId, at: periodStart, usage });
    this.buffer.add(`day|${tenantId}|${day}`, { tenantId, at: day, usage });
  }

  /** Not yet written for the tenant's period. */
  unwritten(tenantId: string, periodStart: string): Usage {
    return this.buffer.unwrittenOf(`period|${tenantId}|${periodStart}`).reduce((sum, p) => plus(sum, p.usage), ZERO);
  }

  /** Not yet written per UTC day of the tenant. */
  unwrittenDays(tenantId: string): Map<string, Usage> {
    const out = new Map<string, Usage>();
    for (const [key, p] of this.buffer.unwritten()) {
      if (key.startsWith('day|') && p.tenantId === tenantId) out.set(p.at, plus(out.get(p.at) ?? ZERO, p.usage));
    }
    return out;
  }

  /** Resolves when no flush is running. */
  settled(): Promise<void> {
    return this.buffer.settled();
  }

  /** Writes what was collected (one flush at a time); resolves when it is committed. */
  flush(): Promise<void> {
    return this.buffer.flush();
  }

  private async write(batch: ReadonlyMap<string, Pending>): Promise<void> {
    const entries = [...batch];
    for (const [, p] of entries.filter(([key]) => key.startsWith('period|'))) {
      await this.db.execute(sql`
        INSERT INTO tenant_usage AS u (tenant_id, period_start, add_calls, retrieve_calls, updated_at)
        VALUES (${p.tenantId}, ${p.at}::timestamptz, ${p.usage.add_calls}, ${p.usage.retrieve_calls}, now())
        ON CONFLICT (tenant_id, period_start) DO UPDATE SET
          add_calls = u.add_calls + excluded.add_calls, retrieve_calls = u.retrieve_calls + excluded.retrieve_calls,
          updated_at = excluded.updated_at`);
    }
    for (const [, p] of entries.filter(([key]) => key.startsWith('day|'))) {
      await this.db.execute(sql`
        INSERT INTO tenant_usage_daily AS d (tenant_id, day, add_calls, retrieve_calls)
        VALUES (${p.tenantId}, ${p.at}, ${p.usage.add_calls}, ${p.usage.retrieve_calls})
        ON CONFLICT (tenant_id, day) DO UPDATE SET
          add_calls = d.add_calls + excluded.add_calls, retrieve_calls = d.retrieve_calls + excluded.retrieve_calls`);
    }
  }
}

// One buffer per Db, kept on the Db under a registered symbol rather than in a module-level map: Next.js
// bundles this module once per route, and with a map per copy each route collected its own counts (a retrieve
// did not see the adds another route had not written yet, and shutdown flushed one copy's counts only).
const BUFFER = Symbol.for('@memory/core.usageBuffer');
type BufferHolder = { [BUFFER]?: UsageBuffer };

function bufferFor(db: Db): UsageBuffer {
  const holder = db as BufferHolder;
  return (holder[BUFFER] ??= new UsageBuffer(db));
}

/** Writes the usage this process has collected (shutdown; tests that read the tables). */
export function flushUsage(db: Db): Promise<void> {
  return (db as BufferHolder)[BUFFER]?.flush() ?? Promise.resolve();
}

function withUsage(state: Omit<QuotaState, 'remainingPct' | 'mode'>, usage: Usage): QuotaState {
  const remainingPct = budgetRemainingPct(state.plan.budgets, usage);
  return { ...state, usage, remainingPct, mode: quotaModeFor(remainingPct) };
}

/** One query: the tenant's plan and its latest usage row (zero when that row belongs to an earlier period). */
export async function readQuotaState(db: Db, tenantId: string, now: Date, env: RateLimitDefaults = {}): Promise<QuotaState> {
  return (await readConsistently(db, (buffer) => readQuotaStateOnce(db, tenantId, null, now, env, buffer))).state;
}

/** The end user a retrieve is for, read with its tenant's quota state. */
export interface RetrieveUser {
  id: string;
  memoryVersion: number;
  domainSchema: string;
}

/**
 * `readQuotaState` and the end user (null when unknown) in the same one query: a hot retrieve needs both
 * before it ranks, and a statement is most of what it costs the database (on PGlite, in this process).
 */
export async function readQuotaStateAndUser(
  db: Db,
  tenantId: string,
  externalUserId: string,
  now: Date,
  env: RateLimitDefaults = {},
): Promise<{ state: QuotaState; user: RetrieveUser | null }> {
  return readConsistently(db, (buffer) => readQuotaStateOnce(db, tenantId, externalUserId, now, env, buffer));
}

// Exact for this process: read the table when no flush is running, and again if one took the counts meanwhile
// (the read may or may not have seen them); then the database plus what is still collected is every count.
async function readConsistently<T>(db: Db, read: (buffer: UsageBuffer) => Promise<T>): Promise<T> {
  const buffer = bufferFor(db);
  for (let attempt = 1; ; attempt++) {
    await buffer.settled();
    const generation = buffer.generation;
    const result = await read(buffer);
    if (buffer.generation === generation || attempt === 3) return result;
  }
}

// every table the quota read below reads: it is read again only after a write to one of them
const QUOTA_TABLES = ['tenants', 'tenant_usage'] as const;
const QUOTA_AND_USER_TABLES = [...QUOTA_TABLES, 'end_users'] as const;

async function readQuotaStateOnce(
  db: Db,
  tenantId: string,
  externalUserId: string | null,
  now: Date,
  env: RateLimitDefaults,
  buffer: UsageBuffer,
): Promise<{ state: QuotaState; user: RetrieveUser | null }> {
  // on the embedded engine the row is read again only after a write to one of its tables (readUntilWrite): a hot
  // retrieve then makes no statement at all, nor an add while other users' memories are written; on PostgreSQL,
  // where other processes write, every time
  const key = `quota|${tenantId}|${externalUserId ?? ''}`;
  const [r] = await readUntilWrite(db, key, () => rows<{
    plan: string;
    plan_anchor: string | Date;
    plan_overrides: PlanOverrides | null;
    quota_mode: QuotaMode;
    period_start: string | Date | null;
    add_calls: number | null;
    retrieve_calls: number | null;
    domain_schema: string;
    user_id: string | null;
    memory_version: number | string | null;
  }>(
    db,
    sql`SELECT t.plan, t.plan_anchor, t.plan_overrides, t.quota_mode, u.period_start, u.add_calls, u.retrieve_calls,
               t.domain_schema, ${externalUserId === null ? sql`NULL AS user_id, NULL AS memory_version` : sql`e.id AS user_id, e.memory_version`}
        FROM tenants t
        LEFT JOIN LATERAL (
          SELECT period_start, add_calls, retrieve_calls FROM tenant_usage
          WHERE tenant_id = t.id ORDER BY period_start DESC LIMIT 1
        ) u ON true
        ${externalUserId === null ? sql.empty() : sql`LEFT JOIN end_users e ON e.tenant_id = t.id AND e.external_user_id = ${externalUserId}`}
        WHERE t.id = ${tenantId}`,
  ), externalUserId === null ? QUOTA_TABLES : QUOTA_AND_USER_TABLES);
  if (!r) throw Errors.notFound('The tenant');
  const overrides = r.plan_overrides ?? {};
  const period = currentPeriod(new Date(r.plan_anchor), now);
  const current = r.period_start !== null && new Date(r.period_start).getTime() === period.start.getTime();
  const written = current ? { add_calls: Number(r.add_calls), retrieve_calls: Number(r.retrieve_calls) } : ZERO;
  const usage = plus(written, buffer.unwritten(tenantId, period.start.toISOString()));
  const state = withUsage(
    { tenantId, plan: effectivePlan(r.plan, overrides, env), overrides, period, usage, recordedMode: r.quota_mode },
    usage,
  );
  const user = r.user_id === null ? null : { id: r.user_id, memoryVersion: Number(r.memory_version), domainSchema: r.domain_schema };
  return { state, user };
}

const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/** Counts `n` of `unit` into the current period and day; returns the state after it (transition announced). */
export async function consumeBudget(db: Db, state: QuotaState, unit: BudgetUnit, now: Date, n = 1): Promise<QuotaState> {
  const counted: Usage = { add_calls: unit === 'add_calls' ? n : 0, retrieve_calls: unit === 'retrieve_calls' ? n : 0 };
  bufferFor(db).record(state.tenantId, state.period.start.toISOString(), utcDay(now), counted);
  const after = withUsage(state, plus(state.usage, counted));
  await announceModeChange(db, after);
  return after;
}

/**
 * Records a mode that differs from the tenant's recorded one. The conditional update lets exactly one request
 * (in any process) win the transition and announce it.
 */
export async function announceModeChange(db: Db, state: QuotaState, actor?: string): Promise<void> {
  if (state.mode === state.recordedMode) return;
  const won = await rows(
    db,
    sql`UPDATE tenants SET quota_mode = ${state.mode} WHERE id = ${state.tenantId} AND quota_mode = ${state.recordedMode} RETURNING id`,
  );
  if (won.length === 0) return;
  await onQuotaModeChanged(
    db,
    state.tenantId,
    { from: state.recordedMode, to: state.mode, budget_remaining_pct: state.remainingPct },
    actor,
  );
}

/** The quota fields every add and retrieve response carries. */
export const quotaFields = (s: QuotaState) => ({ quota_mode: s.mode, budget_remaining_pct: s.remainingPct });

export interface UsageReport {
  tenant_id: string;
  plan: { id: PlanId; name: string; overrides: PlanOverrides };
  period: { start: string; end: string };
  budgets: Record<BudgetUnit, number | null>;
  usage: Usage;
  budget_remaining_pct: number | null;
  quota_mode: QuotaMode;
  thresholds: typeof QUOTA_THRESHOLDS;
  rate_limits: EffectivePlan['rate_limits'] & { window_seconds: number };
  daily: { day: string; add_calls: number; retrieve_calls: number }[];
}

/** GET /v1/tenant/usage, the console's Usage page and the plan commands: the plan, the period and its consumption. */
export async function getUsageReport(db: Db, tenantId: string, now: Date, env: RateLimitDefaults = {}): Promise<UsageReport> {
  const state = await readQuotaState(db, tenantId, now, env);
  await announceModeChange(db, state);
  const buffer = bufferFor(db);
  let days = new Map<string, Usage>();
  for (let attempt = 1; ; attempt++) {
    await buffer.settled();
    const generation = buffer.generation;
    const daily = await rows<{ day: string; add_calls: number; retrieve_calls: number }>(
      db,
      sql`SELECT day, add_calls, retrieve_calls FROM tenant_usage_daily
          WHERE tenant_id = ${tenantId} AND day >= ${utcDay(state.period.start)} AND day <= ${utcDay(now)}
          ORDER BY day`,
    );
    days = new Map(daily.map((d) => [d.day, { add_calls: Number(d.add_calls), retrieve_calls: Number(d.retrieve_calls) }]));
    for (const [day, u] of buffer.unwrittenDays(tenantId)) {
      if (day >= utcDay(state.period.start) && day <= utcDay(now)) days.set(day, plus(days.get(day) ?? ZERO, u));
    }
    if (buffer.generation === generation || attempt === 3) break;
  }
  return {
    tenant_id: tenantId,
    plan: { id: state.plan.id, name: state.plan.name, overrides: state.overrides },
    period: { start: state.period.start.toISOString(), end: state.period.end.toISOString() },
    budgets: state.plan.budgets,
    usage: state.usage,
    budget_remaining_pct: state.remainingPct,
    quota_mode: state.mode,
    thresholds: QUOTA_THRESHOLDS,
    rate_limits: { ...state.plan.rate_limits, window_seconds: 60 },
    daily: [...days.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([day, u]) => ({ day, ...u })),
  };
}

/**
 * Sets a tenant's plan (CLI, admin API). A new plan starts a new period now, so its budget is whole again and the
 * mode is recomputed (and a transition announced) at once. Overrides replace the previous ones entirely.
 */
export async function setTenantPlan(
  db: Db,
  tenantId: string,
  change: { plan: PlanId; overrides?: PlanOverrides },
  opts: { actor: string; now?: Date; env?: RateLimitDefaults },
): Promise<UsageReport> {
  const now = opts.now ?? new Date();
  const overrides = change.overrides ?? {};
  const updated = await rows(
    db,
    sql`UPDATE tenants SET plan = ${change.plan}, plan_anchor = ${now.toISOString()}::timestamptz,
          plan_overrides = ${JSON.stringify(overrides)}::jsonb
        WHERE id = ${tenantId} RETURNING id`,
  );
  if (updated.length === 0) throw Errors.notFound('The tenant');
  await recordAudit(db, {
    tenantId,
    actor: opts.actor,
    action: 'tenant.plan_changed',
    targetType: 'tenant',
    targetId: tenantId,
    details: { plan: change.plan, overrides: JSON.stringify(overrides) },
  });
  const state = await readQuotaState(db, tenantId, now, opts.env);
  await announceModeChange(db, state, opts.actor);
  return getUsageReport(db, tenantId, now, opts.env);
}

