/** POST /v1/memories/retrieval-feedback: request and response (docs/lifecycle.md, "Feedback"). */
import { z } from 'zod';
import { jsonObject, requestMeta } from './common';
import { LIMITS } from './limits';

/** The outcomes an agent reports (their effects on a memory: lifecycle/feedback-effects.ts). */
export const FEEDBACK_OUTCOMES = [
  'used_successfully',
  'partially_used',
  'ignored',
  'irrelevant',
  'missing_context',
  'user_corrected',
] as const;

export type FeedbackOutcome = (typeof FEEDBACK_OUTCOMES)[number];

/** Plain-words meaning of each outcome, for the docs and the OpenAPI description. */
export const FEEDBACK_OUTCOME_DESCRIPTIONS: Record<FeedbackOutcome, string> = {
  used_successfully: 'the agent used the memories and the answer worked',
  partially_used: 'some of the memories helped',
  ignored: 'the agent did not need the memories (not wrong, just not used)',
  irrelevant: 'the memories had nothing to do with the request',
  missing_context: 'the agent lacked a fact the memories should have given; nothing returned is blamed',
  user_corrected: 'the user said a memory is wrong; `correction` holds what the user said instead',
};

const outcomeList = FEEDBACK_OUTCOMES.join(', ');

export const feedbackOutcome = z
  .enum(FEEDBACK_OUTCOMES, { error: () => `must be one of: ${outcomeList}` })
  .meta({
    id: 'FeedbackOutcome',
    description: FEEDBACK_OUTCOMES.map((o) => `\`${o}\`: ${FEEDBACK_OUTCOME_DESCRIPTIONS[o]}`).join('; '),
  });

export const retrievalFeedbackRequest = z
  .object({
    retrieval_id: z.string().uuid('must be the retrieval_id of a retrieve response').meta({
      description: 'The `retrieval_id` of the retrieve response this feedback is about (same tenant).',
    }),
    outcome: feedbackOutcome,
    used_memory_ids: z
      .array(z.string().uuid('must be a memory id'))
      .max(LIMITS.retrieveLimitMax, `at most ${LIMITS.retrieveLimitMax} ids`)
      .default([])
      .meta({
        description:
          'Memories of that retrieval the feedback is about (each must be one it returned). Empty or absent: every memory it returned.',
      }),
    correction: z
      .string()
      .max(LIMITS.messageChars, `must be at most ${LIMITS.messageChars} characters`)
      .refine((s) => s.trim().length > 0, 'must not be empty')
      .nullish()
      .meta({ description: 'What the user said instead. Required with `user_corrected`, refused with any other outcome.' }),
    agent_confidence: z
      .number()
      .min(0, 'must be between 0 and 1')
      .max(1, 'must be between 0 and 1')
      .nullish()
      .meta({ description: 'How sure the agent is of this report, 0–1; scales the effect (absent: 1).' }),
    metadata: jsonObject(LIMITS.metadataBytes, 'metadata')
      .optional()
      .meta({ description: 'Free JSON, e.g. agent id, conversation id (at most 16 KiB).' }),
  })
  .strict()
  .superRefine((v, ctx) => {
    const corrected = v.outcome === 'user_corrected';
    if (corrected && v.correction == null) {
      ctx.addIssue({ code: 'custom', path: ['correction'], message: 'is required when outcome is user_corrected' });
    }
    if (!corrected && v.correction != null) {
      ctx.addIssue({ code: 'custom', path: ['correction'], message: 'is only accepted with outcome user_corrected' });
    }
  })
  .meta({ id: 'RetrievalFeedbackRequest' });
export type RetrievalFeedbackRequest = z.infer<typeof retrievalFeedbackRequest>;

export const retrievalFeedbackView = z
  .object({
    feedback_id: z.string().uuid(),
    retrieval_id: z.string().uuid(),
    outcome: feedbackOutcome,
    used_memory_ids: z.array(z.string().uuid()).meta({ description: 'The memories the feedback was applied to.' }),
    memories_updated: z.number().int().meta({ description: 'How many of them changed importance or feedback score.' }),
    correction_job_id: z
      .string()
      .uuid()
      .nullable()
      .meta({ description: 'The queued retrospective extraction job (poll GET /v1/memories/jobs/{id}); null unless `user_corrected`.' }),
    created_at: z.string().datetime(),
  })
  .meta({ id: 'RetrievalFeedback' });
export type RetrievalFeedbackView = z.infer<typeof retrievalFeedbackView>;

export const retrievalFeedbackResponse = z
  .object({ data: retrievalFeedbackView, ...requestMeta })
  .meta({ id: 'RetrievalFeedbackResponse' });
export type RetrievalFeedbackResponse = z.infer<typeof retrievalFeedbackResponse>;
