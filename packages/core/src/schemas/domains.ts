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
/** The column default (packages/db/src/schema.ts, tenants.domain_schema). */
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
