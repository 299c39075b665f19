import { describe, expect, it } from 'vitest';
// The package's entry, as the app imports it: loading it registers every domain schema's retrieve section.
import '../index';
import { domainSectionSource } from '../retrieval/domain-section';
import type { RankableRow } from '../retrieval/hot-tier';

const row = (content: string) => ({ id: 'm1', content, source_event_id: null, created_at: '2026-01-01T00:00:00Z' }) as unknown as RankableRow;

describe('domain schemas register their retrieve section', () => {
  it('EdTech and Customer Support have one; no schema has none', () => {
    expect(domainSectionSource('edtech')).not.toBeNull();
    expect(domainSectionSource('customer_support')?.load).toBeTypeOf('function');
    expect(domainSectionSource('none')).toBeNull();
  });

  it('builds the section from the user’s memories', () => {
    const now = new Date('2026-02-01T00:00:00Z');
    const learner = domainSectionSource('edtech')!.build('u1', [row('The user is in 10th grade.')], now, null);
    expect(learner?.heading).toBe('Learner profile:');
    const customer = domainSectionSource('customer_support')!.build('u1', [row('The user is on the Pro plan.')], now, null);
    expect(customer?.heading).toBe('Customer profile:');
  });
});
