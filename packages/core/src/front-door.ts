/**
 * `@memory/core/front-door`: what apps/web/server.ts needs before Next.js is loaded: the configuration, the error
 * model and the front door's pure rules (the client address through trusted proxies, undecodable paths, the method
 * table). Leaf modules only, so the process in front of Next.js does not load the domain a second time.
 */
export { ConfigError, loadConfig } from './config';
export { type ApiError, Errors, toProblem } from './errors';
export { CLIENT_ADDRESS_HEADER, clientAddress, compileTrust } from './http/client-address';
export { dotSegments, methodTable, undecodablePath } from './http/front-door';
