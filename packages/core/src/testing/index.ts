/** `@memory/core/testing`: helpers for tests of the packages above core (a fake OpenAI-compatible server, an in-memory database). */
export * from './fake-openai';
export * from './memory-database';
