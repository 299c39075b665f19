import { describe, expect, it } from 'vitest';
import { Errors, isDatabaseUnavailable, toProblem } from './errors';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('recognises connection failures and shutdowns, also behind a wrapping error', () => {
    for (const code of ['ECONNREFUSED', 'CONNECT_TIMEOUT', 'CONNECTION_CLOSED', '08006', '08001', '57P01', '57P03', '53300', '57014']) {
      expect({ code, down: isDatabaseUnavailable(withCode(code)) }).toEqual({ code, down: true });
    }
    // Drizzle wraps the driver's error: "Failed query: …" with the cause
    const wrapped = Object.assign(new Error('Failed query: select 1'), { cause: withCode('ECONNREFUSED') });
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
  });

  it('leaves request and schema errors alone', () => {
    for (const code of ['23505', '22P02', '42P01', '22021', '40001']) expect(isDatabaseUnavailable(withCode(code))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
  });
});

describe('toProblem', () => {
  it('renders an unavailable database as 503 database_unavailable with Retry-After, not as a bug, and without the cause', () => {
    const { problem, unexpected } = toProblem(withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'), 'req-1', '/v1/memories/add');
    expect(unexpected).toBe(false);
    expect(problem.status).toBe(503);
    expect(problem.headers).toMatchObject({ 'Content-Type': 'application/problem+json', 'Retry-After': '5' });
    expect(problem.body).toMatchObject({ code: 'database_unavailable', request_id: 'req-1', instance: '/v1/memories/add' });
    expect(JSON.stringify(problem.body)).not.toContain('127.0.0.1');
  });

  it('keeps an unknown error a generic 500 and an ApiError as it is', () => {
    const bug = toProblem(new Error('SELECT secret FROM t'), 'req-2');
    expect(bug.unexpected).toBe(true);
    expect(bug.problem.status).toBe(500);
    expect(JSON.stringify(bug.problem.body)).not.toContain('SELECT');
    const known = toProblem(Errors.databaseUnavailable({ database: { status: 'unavailable' } }), 'req-3');
    expect(known.problem.body).toMatchObject({ code: 'database_unavailable', status: 503, database: { status: 'unavailable' } });
  });
});
