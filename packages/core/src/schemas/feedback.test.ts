import { describe, expect, it } from 'vitest';
import { retrievalFeedbackRequest } from './feedback';

const id = '6f1c2a4e-8b7d-4c3e-9a1f-2b3c4d5e6f70';
const issues = (body: unknown) => {
  const r = retrievalFeedbackRequest.safeParse(body);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('retrievalFeedbackRequest', () => {
  it('needs retrieval_id and outcome; everything else is optional', () => {
    expect(retrievalFeedbackRequest.parse({ retrieval_id: id, outcome: 'ignored' })).toEqual({
      retrieval_id: id,
      outcome: 'ignored',
      used_memory_ids: [],
    });
    expect(issues({ outcome: 'ignored' })).toEqual(['retrieval_id: Invalid input: expected string, received undefined']);
    expect(issues({ retrieval_id: 'abc', outcome: 'ignored' })).toEqual(['retrieval_id: must be the retrieval_id of a retrieve response']);
  });

  it('lists the outcomes in the error for an unknown one', () => {
    expect(issues({ retrieval_id: id, outcome: 'great' })).toEqual([
      'outcome: must be one of: used_successfully, partially_used, ignored, irrelevant, missing_context, user_corrected',
    ]);
  });

  it('keeps agent_confidence within 0–1 and used_memory_ids to memory ids', () => {
    expect(issues({ retrieval_id: id, outcome: 'ignored', agent_confidence: 1.2 })).toEqual(['agent_confidence: must be between 0 and 1']);
    expect(issues({ retrieval_id: id, outcome: 'ignored', agent_confidence: -0.1 })).toEqual(['agent_confidence: must be between 0 and 1']);
    expect(issues({ retrieval_id: id, outcome: 'ignored', agent_confidence: 0 })).toEqual([]);
    expect(issues({ retrieval_id: id, outcome: 'ignored', used_memory_ids: ['x'] })).toEqual(['used_memory_ids.0: must be a memory id']);
    expect(issues({ retrieval_id: id, outcome: 'ignored', extra: 1 })).toHaveLength(1);
  });

  it('requires a correction with user_corrected and refuses one with any other outcome', () => {
    expect(issues({ retrieval_id: id, outcome: 'user_corrected' })).toEqual(['correction: is required when outcome is user_corrected']);
    expect(issues({ retrieval_id: id, outcome: 'user_corrected', correction: '   ' })).toEqual(['correction: must not be empty']);
    expect(issues({ retrieval_id: id, outcome: 'user_corrected', correction: 'I live in Porto.' })).toEqual([]);
    expect(issues({ retrieval_id: id, outcome: 'irrelevant', correction: 'I live in Porto.' })).toEqual([
      'correction: is only accepted with outcome user_corrected',
    ]);
  });
});
