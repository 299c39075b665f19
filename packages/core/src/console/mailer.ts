/**
 * Outgoing mail. With SMTP_URL: nodemailer over SMTP, handed off in the background so the response time of
 * a code request does not tell whether the address belongs to an admin. Without it: the development mailbox
 * table, shown at /dev/mailbox. Never logs a message body (it holds the code).
 */
import { randomUUID } from 'node:crypto';
import { type Db, desc, devMailbox } from '@memory/db';
import nodemailer, { type Transporter } from 'nodemailer';
import type { AppConfig } from '../config';
import { Errors } from '../errors';
import { describeError } from '../logger';
import type { Logger } from '../logger';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'dev-mailbox' | 'none';
  send(mail: OutgoingMail): Promise<void>;
}

export class DevMailbox implements Mailer {
  readonly kind = 'dev-mailbox' as const;
  constructor(private readonly db: Db) {}
  async send(mail: OutgoingMail): Promise<void> {
    await this.db.insert(devMailbox).values({ id: randomUUID(), toAddress: mail.to, subject: mail.subject, body: mail.text });
  }
}

export class SmtpMailer implements Mailer {
  readonly kind = 'smtp' as const;
  private readonly transport: Transporter;
  constructor(
    url: string,
    private readonly from: string,
    private readonly log: Logger,
  ) {
    this.transport = nodemailer.createTransport(url);
  }
  async send(mail: OutgoingMail): Promise<void> {
    this.transport.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text }).then(
      () => this.log.info({ mail: 'sent', subject: mail.subject }, 'mail sent'),
      (err: unknown) => this.log.error({ mail: 'failed', ...describeError(err) }, 'mail delivery failed'),
    );
  }
}

/** Neither SMTP nor the development mailbox: sign-in codes cannot be delivered. */
export class NoMailer implements Mailer {
  readonly kind = 'none' as const;
  async send(): Promise<void> {
    throw Errors.serviceUnavailable('Sign-in email is not configured on this server: set SMTP_URL.');
  }
}

export function createMailer(mail: AppConfig['mail'], db: Db, log: Logger): Mailer {
  if (mail.smtpUrl) return new SmtpMailer(mail.smtpUrl, mail.from, log);
  return mail.devMailbox ? new DevMailbox(db) : new NoMailer();
}

export interface DevMailView {
  id: string;
  to: string;
  subject: string;
  body: string;
  created_at: string;
}

/** The newest messages of the development mailbox. */
export async function listDevMailbox(db: Db, limit = 50): Promise<DevMailView[]> {
  const found = await db.select().from(devMailbox).orderBy(desc(devMailbox.createdAt), desc(devMailbox.id)).limit(limit);
  return found.map((m) => ({ id: m.id, to: m.toAddress, subject: m.subject, body: m.body, created_at: m.createdAt.toISOString() }));
}
