import { describe, expect, it } from 'vitest';
import { dotSegments, methodTable, undecodablePath } from './front-door';

describe('undecodablePath', () => {
  it('finds percent-encodings that do not decode, in the path only', () => {
    for (const bad of ['/v1/memories/jobs/%', '/v1/memories/jobs/%zz', '/v1/memories/jobs/%ED%A0%80', '/v1/%C3']) {
      expect(undecodablePath(bad), bad).toBe(true);
    }
    for (const good of ['/v1/memories/jobs/abc', '/v1/users/caf%C3%A9', '/v1/memories?q=%', '/']) {
      expect(undecodablePath(good), good).toBe(false);
    }
  });
});

describe('dotSegments', () => {
  it('finds . and .. segments, plain or percent-encoded, in the path only', () => {
    for (const bad of ['/v1/memories/%2e%2e', '/v1/%2E%2e/x', '/v1/./memories', '/v1/memories/..', '/v1/memories/%2e']) {
      expect(dotSegments(bad), bad).toBe(true);
    }
    for (const good of ['/v1/memories/a.b', '/v1/memories/...', '/v1/memories?x=..', '/v1/memories/%2e%2ex', '/']) {
      expect(dotSegments(good), good).toBe(false);
    }
  });
});

describe('methodTable', () => {
  const allowed = methodTable({
    '/v1/memories/add': { post: {} },
    '/v1/memories/{memory_id}': { get: {}, delete: {}, parameters: [] },
    '/v1/memories/jobs/{job_id}': { get: {} },
    '/v1/admin/tenants/{tenant_id}/api-keys/{key_id}': { delete: {} },
  });

  it('answers the methods of the documented path, with HEAD for GET', () => {
    expect(allowed('/v1/memories/add')).toEqual(['POST']);
    expect(allowed('/v1/memories/7d1c')).toEqual(['GET', 'DELETE', 'HEAD']);
    expect(allowed('/v1/admin/tenants/t1/api-keys/k1')).toEqual(['DELETE']);
  });

  it('prefers a literal segment to a parameter, like the router', () => {
    expect(allowed('/v1/memories/jobs/j1')).toEqual(['GET', 'HEAD']);
    expect(allowed('/v1/memories/add/')).toEqual(['POST']);
  });

  it('is null for paths it does not document', () => {
    expect(allowed('/v1/nothing/here')).toBeNull();
    expect(allowed('/v1/memories')).toBeNull();
    expect(allowed('/console')).toBeNull();
  });
});
