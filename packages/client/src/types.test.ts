import { expectTypeOf, it } from 'vitest';
import type { Result, Schemas } from './types.js';

it('unwraps only the envelope', () => {
  expectTypeOf<Result<'retrieveMemories'>>().toEqualTypeOf<Schemas['RetrieveResponse']>();
  expectTypeOf<Result<'getExtractionJob'>>().toEqualTypeOf<Schemas['ExtractionJob']>();
  expectTypeOf<Result<'addMemories'>>().toEqualTypeOf<Schemas['AddMemoriesResponse']>();
  expectTypeOf<Result<'listMemories'>>().toEqualTypeOf<Schemas['MemoryPage']>();
});
