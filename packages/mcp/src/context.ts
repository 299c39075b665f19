/** What every tool gets: the services it calls (the app's runtime) and a fresh request id per call, as a REST request has. */
import type { AddDeps, Logger, RetrievalDeps } from '@memory/core';

export interface McpDeps extends AddDeps {
  retrieval: RetrievalDeps;
  log?: Logger;
}

export interface ToolContext {
  deps: McpDeps;
  requestId: () => string;
}
