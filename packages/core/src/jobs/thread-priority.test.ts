import { describe, expect, it } from 'vitest';
import { lowerThreadPriority } from './thread-priority';

describe('lowerThreadPriority', () => {
  it('sets the nice value on Linux, at most 19', () => {
    const calls: number[] = [];
    expect(lowerThreadPriority(10, 'linux', (p) => calls.push(p))).toBe('lowered');
    expect(lowerThreadPriority(40, 'linux', (p) => calls.push(p))).toBe('lowered');
    expect(calls).toEqual([10, 19]);
  });

  it('leaves the priority alone at 0, and on platforms where the call would reach the whole process', () => {
    const calls: number[] = [];
    expect(lowerThreadPriority(0, 'linux', (p) => calls.push(p))).toBe('unchanged');
    expect(lowerThreadPriority(Number.NaN, 'linux', (p) => calls.push(p))).toBe('unchanged');
    expect(lowerThreadPriority(10, 'darwin', (p) => calls.push(p))).toBe('not-linux');
    expect(lowerThreadPriority(10, 'win32', (p) => calls.push(p))).toBe('not-linux');
    expect(calls).toEqual([]);
  });

  it('reports a refusal instead of throwing', () => {
    expect(
      lowerThreadPriority(10, 'linux', () => {
        throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
      }),
    ).toBe('refused');
  });
});
