/** Domain schemas (docs/domain-schemas.md): the tenant setting, its catalogue and the EdTech student profile. */
import { z } from 'zod';
import { externalUserId } from './common';

/** Every schema the service knows, in catalogue order. Only `available` ones can be chosen. */
export const DOMAIN_CATALOGUE = [
  { id: 'general', name: 'General Engine', status: 'available' },
  { id: 'edtech', name: 'EdTech Schema', status: 'available' },
  { id: 'customer_support', name: 'Customer Support Schema', status: 'available' },
  { id: 'hr_tech', name: 'HR Tech', status: 'announced' },
  { id: 'healthtech', name: 'HealthTech', status: 'announced' },
  { id: 'agritech', name: 'AgriTech', status: 'planned' },
] as const;

export const ACTIVE_DOMAIN_SCHEMAS = ['general', 'edtech', 'customer_support'] as const;
export type DomainSchemaId = (typeof ACTIVE_DOMAIN_SCHEMAS)[number];
/** The column default (packages/db/src/schema/tenants.ts, tenants.domain_schema). */
export const DEFAULT_DOMAIN_SCHEMA: DomainSchemaId = 'general';

export const domainSchemaId = z.enum(ACTIVE_DOMAIN_SCHEMAS).meta({
  description: 'A selectable domain schema: `general`, `edtech` or `customer_support`.',
  example: 'edtech',
});

export const domainCatalogueEntry = z
  .object({
    id: z.string().meta({ example: 'hr_tech' }),
    name: z.string().meta({ example: 'HR Tech' }),
    status: z.enum(['available', 'announced', 'planned']).meta({
      description: '`available` schemas can be chosen; `announced` and `planned` ones are listed but refused.',
    }),
    active: z.boolean().meta({ description: 'True for the tenant’s current schema.' }),
  })
  .meta({ id: 'DomainSchemaCatalogueEntry' });

export const tenantDomainSchemaView = z
  .object({
    domain_schema: domainSchemaId,
    catalogue: z.array(domainCatalogueEntry),
  })
  .meta({ id: 'TenantDomainSchema' });

export type TenantDomainSchema = z.infer<typeof tenantDomainSchemaView>;

/**
 * `{ "domain_schema": "edtech" }`. Any string passes the schema so the handler can answer an announced or
 * planned id with a 422 that names its status (domains/settings.ts); the documented values are the enum.
 */
export const updateDomainSchemaRequest = z
  .object({
    domain_schema: z.string().min(1, 'is required').max(64).meta({
      description: 'One of `general`, `edtech`, `customer_support`. Announced (`hr_tech`, `healthtech`) and planned (`agritech`) schemas are refused with 422.',
      example: 'edtech',
    }),
  })
  .strict()
  .meta({ id: 'UpdateDomainSchemaRequest' });

/** One entry of a profile field: a short phrase and the memories (with their source events) that support it. */
export const profileEntry = z
  .object({
    value: z.string().meta({ example: 'fractions' }),
    memory_ids: z.array(z.string()).meta({ description: 'The active memories this entry was read from.' }),
    source_event_ids: z.array(z.string()).meta({ description: 'The source events of those memories, where recorded.' }),
  })
  .meta({ id: 'ProfileEntry' });

export type ProfileEntry = z.infer<typeof profileEntry>;

export const STUDENT_PROFILE_FIELDS = [
  'level',
  'subjects',
  'learning_goals',
  'strengths',
  'struggles',
  'misconceptions',
  'learning_style',
  'pace',
  'accommodations',
  'exam_dates',
] as const;
export type StudentProfileField = (typeof STUDENT_PROFILE_FIELDS)[number];

const entries = (description: string) => z.array(profileEntry).meta({ description });

export const studentProfileView = z
  .object({
    external_user_id: z.string(),
    level: entries('Grade, year or level (“10th grade”, “university”). Newest first.'),
    subjects: entries('Subjects the student studies or is taught.'),
    learning_goals: entries('What the student wants to achieve.'),
    strengths: entries('What the student is good at.'),
    struggles: entries('What the student finds hard.'),
    misconceptions: entries('Wrong beliefs the student holds or confuses (“confuses mass and weight”).'),
    learning_style: entries('How the student prefers to learn (“visual examples”).'),
    pace: entries('Preferred pace (“slow, step by step”).'),
    accommodations: entries('Needs and accommodations (“extra time on tests”, “dyslexia”).'),
    exam_dates: z
      .array(profileEntry.extend({ date: z.string().nullable().meta({ description: 'ISO date when the text names one.' }) }))
      .meta({ description: 'Upcoming or past exams with their dates when stated.' }),
    memory_count: z.number().int().meta({ description: 'Active memories the profile was built from.' }),
    generated_at: z.string().meta({ description: 'When this profile was computed (it is built at read time).' }),
  })
  .meta({ id: 'StudentProfile' });

export type StudentProfile = z.infer<typeof studentProfileView>;

export const edtechProfileQuery = z.object({ external_user_id: externalUserId });

// ── Customer Support (docs/domain-schemas.md, "Customer Support") ────────────────────────────────────────────

const isoTime = (description: string) => z.string().meta({ description, example: '2025-03-10T11:00:00.000Z' });

export const supportIssue = z
  .object({
    value: z.string().meta({ description: 'The problem as the customer reported it.', example: 'The CSV export keeps failing with a timeout error' }),
    status: z.enum(['open', 'resolved']),
    ticket: z.string().nullable().meta({ description: 'The source scope’s `ticket` of the conversation that reported it.' }),
    opened_at: isoTime('When it was first reported (the source event’s `observed_at`, else the memory’s creation).'),
    memory_ids: z.array(z.string()).meta({ description: 'The active memories that report the problem.' }),
    source_event_ids: z.array(z.string()),
    resolution: z
      .object({
        resolved_at: isoTime('When it was resolved.'),
        by: z.enum(['ticket_status', 'resolution_report']).meta({
          description: '`ticket_status`: a later event of the same ticket had a closed `ticket_status`; `resolution_report`: the customer said it works now.',
        }),
        memory_ids: z.array(z.string()),
        source_event_ids: z.array(z.string()),
      })
      .nullable(),
  })
  .meta({ id: 'SupportIssue' });
export type SupportIssue = z.infer<typeof supportIssue>;

export const supportEscalation = z
  .object({
    value: z.string().meta({ example: 'The user asked to speak to a manager' }),
    observed_at: isoTime('When it happened.'),
    ticket: z.string().nullable(),
    memory_ids: z.array(z.string()),
    source_event_ids: z.array(z.string()),
  })
  .meta({ id: 'SupportEscalation' });
export type SupportEscalation = z.infer<typeof supportEscalation>;

export const SENTIMENT_LABELS = ['positive', 'neutral', 'negative'] as const;
export const SENTIMENT_TRENDS = ['improving', 'stable', 'declining', 'insufficient_data'] as const;

export const customerSentiment = z
  .object({
    latest: z.number().nullable().meta({ description: 'Score of the latest scored conversation, -1 to 1.' }),
    label: z.enum(SENTIMENT_LABELS).nullable(),
    average: z.number().nullable().meta({ description: 'Mean over all scored conversations.' }),
    trend: z.enum(SENTIMENT_TRENDS).meta({
      description: 'Mean of the latest conversations (up to 3) against the ones before them (up to 3): ±0.1 or more is improving / declining.',
    }),
    points: z
      .array(z.object({ source_event_id: z.string(), observed_at: z.string(), score: z.number() }))
      .meta({ description: 'The latest 20 scored conversations, oldest first.' }),
  })
  .meta({ id: 'CustomerSentiment' });

export const preferredChannel = z
  .object({
    value: z.string().meta({ example: 'email' }),
    basis: z.enum(['stated', 'most_used']).meta({
      description: '`stated`: a memory says so (“prefers to be contacted by email”); `most_used`: the most frequent source scope `channel`.',
    }),
    memory_ids: z.array(z.string()),
    source_event_ids: z.array(z.string()),
  })
  .meta({ id: 'PreferredChannel' });

export const customerProfileView = z
  .object({
    external_user_id: z.string(),
    plan: entries('Plan or tier, newest first: the first entry is the current plan.'),
    products: entries('Products the customer uses (names with a capital letter, or the source scope’s `product`).'),
    environment: entries('Operating systems, browsers, devices, versions, hosting.'),
    open_issues: z.array(supportIssue).meta({ description: 'Reported problems not resolved yet, newest first.' }),
    past_issues: z.array(supportIssue).meta({ description: 'Resolved problems, most recently resolved first.' }),
    sentiment: customerSentiment,
    preferred_channel: preferredChannel.nullable(),
    channels: z
      .array(z.object({ channel: z.string(), conversations: z.number().int() }))
      .meta({ description: 'Conversations per source scope `channel`, most used first.' }),
    escalations: z.array(supportEscalation).meta({ description: 'Newest first.' }),
    conversation_count: z.number().int().meta({ description: 'Source events (conversations) of this customer.' }),
    first_contact_at: z.string().nullable(),
    last_contact_at: z.string().nullable(),
    memory_count: z.number().int().meta({ description: 'Active memories the profile was built from.' }),
    generated_at: z.string().meta({ description: 'When this profile was computed (it is built at read time).' }),
  })
  .meta({ id: 'CustomerProfile' });
export type CustomerProfile = z.infer<typeof customerProfileView>;

export const customerSummaryView = z
  .object({
    external_user_id: z.string(),
    plan: z.string().nullable().meta({ example: 'Business plan' }),
    products: z.array(z.string()),
    open_issues: z.number().int(),
    past_issues: z.number().int(),
    sentiment: z.number().nullable(),
    sentiment_label: z.enum(SENTIMENT_LABELS).nullable(),
    sentiment_trend: z.enum(SENTIMENT_TRENDS),
    preferred_channel: z.string().nullable(),
    escalations: z.number().int(),
    conversation_count: z.number().int(),
    last_contact_at: z.string().nullable(),
  })
  .meta({ id: 'CustomerSummary' });
export type CustomerSummary = z.infer<typeof customerSummaryView>;

const booleanParam = z.enum(['true', 'false']).transform((v) => v === 'true');
export const CUSTOMER_SORTS = ['last_contact', 'open_issues', 'sentiment'] as const;
export const CUSTOMERS_LIMIT_MAX = 100;

export const listCustomersQuery = z.object({
  plan: z.string().min(1).max(64).optional().meta({ description: 'Current plan, case-insensitive; `pro` matches “Pro plan”.' }),
  has_open_issues: booleanParam.optional(),
  sentiment: z.enum(SENTIMENT_LABELS).optional().meta({ description: 'Label of the latest scored conversation.' }),
  sentiment_trend: z.enum(SENTIMENT_TRENDS).optional(),
  escalated: booleanParam.optional().meta({ description: '`true`: at least one escalation; `false`: none.' }),
  channel: z.string().min(1).max(32).optional().meta({ description: 'Preferred channel (`email`, `phone`, `chat`, `sms`, …).' }),
  contacted_after: z.string().datetime({ offset: true }).optional().meta({ description: 'Last contact at or after this time.' }),
  sort: z.enum(CUSTOMER_SORTS).default('last_contact').meta({
    description: '`last_contact` (newest first, the default), `open_issues` (most first) or `sentiment` (most negative first).',
  }),
  limit: z.coerce.number().int().min(1).max(CUSTOMERS_LIMIT_MAX).default(20),
  cursor: z.string().max(512).optional(),
});
export type ListCustomersQuery = z.infer<typeof listCustomersQuery>;

export const customerListView = z
  .object({ customers: z.array(customerSummaryView), next_cursor: z.string().nullable(), total: z.number().int().meta({ description: 'Customers matching the filters.' }) })
  .meta({ id: 'CustomerList' });
export type CustomerList = z.infer<typeof customerListView>;

export const SUPPORT_WINDOW_DAYS_MAX = 366;
export const supportStatsQuery = z
  .object({
    window: z
      .string()
      .regex(/^\d{1,3}d$/, 'is a number of days such as `7d` or `30d`')
      .optional()
      .meta({ description: 'The window ending now, `1d` to `366d`; default `30d`. Not together with `from`/`to`.', example: '30d' }),
    from: z.string().datetime({ offset: true }).optional().meta({ description: 'Window start (with `to`).' }),
    to: z.string().datetime({ offset: true }).optional().meta({ description: 'Window end, exclusive; default now.' }),
  })
  .superRefine((q, ctx) => {
    if (q.window && (q.from || q.to)) ctx.addIssue({ code: 'custom', path: ['window'], message: 'is not allowed together with `from`/`to`' });
    if (q.to && !q.from) ctx.addIssue({ code: 'custom', path: ['from'], message: 'is required with `to`' });
    const days = q.window ? Number(q.window.slice(0, -1)) : null;
    if (days !== null && (days < 1 || days > SUPPORT_WINDOW_DAYS_MAX)) ctx.addIssue({ code: 'custom', path: ['window'], message: `must be 1d to ${SUPPORT_WINDOW_DAYS_MAX}d` });
  });
export type SupportStatsQuery = z.infer<typeof supportStatsQuery>;

const windowTotals = z
  .object({
    conversations: z.number().int(),
    customers_contacted: z.number().int(),
    issues_opened: z.number().int(),
    issues_resolved: z.number().int(),
    escalations: z.number().int(),
    negative_conversations: z.number().int(),
    average_sentiment: z.number().nullable(),
    median_resolution_hours: z.number().nullable().meta({ description: 'Median time from report to resolution of the issues resolved in the window.' }),
  })
  .meta({ id: 'SupportWindowTotals' });

export const supportStatsView = z
  .object({
    window: z.object({ from: z.string(), to: z.string(), days: z.number(), bucket: z.enum(['day', 'week']) }),
    totals: windowTotals,
    previous: windowTotals.meta({ description: 'The same totals for the window of equal length just before.' }),
    current: z
      .object({
        customers: z.number().int(),
        open_issues: z.number().int(),
        customers_with_open_issues: z.number().int(),
        customers_negative: z.number().int().meta({ description: 'Customers whose latest conversation was negative.' }),
        customers_declining: z.number().int().meta({ description: 'Customers whose sentiment trend is declining.' }),
      })
      .meta({ description: 'State now, whatever the window.' }),
    series: z
      .array(
        z.object({
          start: z.string(),
          conversations: z.number().int(),
          issues_opened: z.number().int(),
          issues_resolved: z.number().int(),
          escalations: z.number().int(),
          average_sentiment: z.number().nullable(),
        }),
      )
      .meta({ description: 'Per day (windows up to 92 days) or per week (UTC), oldest first.' }),
    channels: z.array(z.object({ channel: z.string(), conversations: z.number().int() })),
    plans: z.array(z.object({ plan: z.string(), customers: z.number().int() })).meta({ description: 'Current plans of all customers; `unknown` when none is known.' }),
    top_issue_terms: z
      .array(z.object({ term: z.string(), issues: z.number().int() }))
      .meta({ description: 'Words most often found in the issues opened in the window (up to 5).' }),
  })
  .meta({ id: 'SupportStats' });
export type SupportStats = z.infer<typeof supportStatsView>;

export const customerPathParams = z.object({ external_user_id: externalUserId });
