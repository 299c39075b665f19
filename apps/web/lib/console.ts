/** The console's per-process services: one mailer per runtime (SMTP transport or development mailbox). */
import { type ApiDeps } from '@memory/api';
import { type Mailer, createMailer } from '@memory/core';
import type { Runtime } from './runtime';

const mailers = new WeakMap<Runtime, Mailer>();

export function consoleDeps(rt: Runtime): ApiDeps {
  let mailer = mailers.get(rt);
  if (!mailer) {
    mailer = createMailer(rt.config.mail, rt.db, rt.log);
    mailers.set(rt, mailer);
  }
  return { db: rt.db, log: rt.log, mailer, rateLimitDefaults: rt.config.quota.rateLimits, webhooks: rt.config.webhooks, retrieval: rt.retrieval, limiter: rt.quota.limiter };
}

/** The development mailbox exists only when MEMORY_DEV_MAILBOX allows it (docs/console.md). */
export const devMailboxEnabled = (rt: Runtime) => rt.config.mail.devMailbox;

/** Outgoing mail of this runtime (console and passport sign-in codes share it). */
export const mailerFor = (rt: Runtime): Mailer => consoleDeps(rt).mailer;
