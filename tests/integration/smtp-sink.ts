/**
 * A minimal SMTP server on loopback that keeps every message it is given, as a mail catcher (Mailpit in
 * docker-compose.yml) would: no TLS, no authentication. Enough of RFC 5321 for nodemailer's client.
 */
import { type Server, createServer } from 'node:net';

export interface CaughtMail {
  from: string;
  to: string[];
  data: string;
}

export interface SmtpSink {
  url: string;
  mails: CaughtMail[];
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: CaughtMail[] = [];
  const server: Server = createServer((socket) => {
    let buffer = '';
    let inData = false;
    let mail: CaughtMail = { from: '', to: [], data: '' };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 smtp-sink ready');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (let end = buffer.indexOf('\r\n'); end !== -1; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            mails.push(mail);
            mail = { from: '', to: [], data: '' };
            reply('250 queued');
          } else mail.data += `${line.startsWith('..') ? line.slice(1) : line}\n`;
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        const address = () => line.slice(line.indexOf(':') + 1).trim().replace(/[<>]/g, '').split(' ')[0];
        if (verb === 'MAIL') mail.from = address();
        if (verb === 'RCPT') mail.to.push(address());
        if (verb === 'DATA') inData = true;
        reply(verb === 'DATA' ? '354 end with <CRLF>.<CRLF>' : verb === 'QUIT' ? '221 bye' : '250 smtp-sink');
        if (verb === 'QUIT') socket.end();
      }
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
