import { describe, expect, it } from 'vitest';
import { IRREGULAR_PASTS, irregularVerb } from './irregular-verbs';

describe('irregular verbs', () => {
  it('reads base, past and participle, with every spelling', () => {
    expect(irregularVerb('be')).toEqual({ base: 'be', past: ['was', 'were'], participle: ['been'] });
    expect(irregularVerb('bear')?.participle).toEqual(['born', 'borne']);
    expect(irregularVerb('swim')).toEqual({ base: 'swim', past: ['swam'], participle: ['swum'] });
  });

  it('takes the past for a participle that is not written', () => {
    expect(irregularVerb('buy')).toEqual({ base: 'buy', past: ['bought'], participle: ['bought'] });
  });

  it('knows only base forms, and only irregular verbs', () => {
    expect(irregularVerb('bought')).toBeUndefined();
    expect(irregularVerb('walk')).toBeUndefined();
  });

  it('lists the pasts that differ from their base', () => {
    for (const past of ['came', 'ran', 'became', 'drew', 'were', 'withdrew', 'lay']) expect(IRREGULAR_PASTS.has(past)).toBe(true);
    for (const same of ['come', 'run', 'become', 'drawn', 'been', 'walked']) expect(IRREGULAR_PASTS.has(same)).toBe(false);
  });
});
