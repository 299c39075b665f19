/**
 * How a tool answers: a domain result as JSON text plus `structuredContent`, or a domain error as the same
 * problem+json body the REST API would send, marked `isError` so the model sees why the call failed.
 */
import { type Logger, assertStorableText, describeError, toProblem } from '@memory/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export function ok(data: Record<string, unknown>, lead?: string): CallToolResult {
  const content: CallToolResult['content'] = [];
  if (lead !== undefined) content.push({ type: 'text', text: lead });
  content.push({ type: 'text', text: JSON.stringify(data) });
  return { content, structuredContent: data };
}

export function failed(body: Record<string, unknown>): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
}

/** An idempotent add's outcome (the REST status and body): the body, an error when the status is one. */
export function outcomeAnswer(outcome: { httpStatus: number; body: unknown }): CallToolResult {
  const body = outcome.body as Record<string, unknown>;
  return outcome.httpStatus >= 400 ? failed(body) : ok(body);
}

/**
 * Runs a tool's handler; a thrown error becomes the tool's problem answer (logged when unexpected, like `route`).
 * The arguments first pass the parsing seam's rule for text PostgreSQL cannot store (NUL, unpaired surrogates):
 * 422 `validation_failed` naming the field, as on /v1, never a database error.
 */
export async function guarded(
  ctx: { requestId: () => string; deps: { log?: Logger } },
  args: unknown,
  run: (requestId: string) => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const requestId = ctx.requestId();
  try {
    assertStorableText(args);
    return await run(requestId);
  } catch (err) {
    const { problem, unexpected } = toProblem(err, requestId, '/mcp');
    // Name, SQLSTATE and message only: never tool arguments, keys or memory content.
    if (unexpected) ctx.deps.log?.error({ ...describeError(err), request_id: requestId }, 'unhandled error in an MCP tool');
    return failed(problem.body as unknown as Record<string, unknown>);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: string) => UUID.test(v);
