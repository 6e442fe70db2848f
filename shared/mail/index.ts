import { config } from '../config.js';
import type { Mailer } from '../domain/mail.js';
import { sesMailer } from './ses.js';

let cached: Mailer | undefined;

/**
 * The process's mailer: SMTP when IDM_SMTP_URL is set (local runs), SES otherwise (AWS). The SMTP
 * adapter (nodemailer) is imported on the first mail of a process that uses it, so a function in
 * AWS never runs nodemailer's module code at its cold start.
 */
export function mailer(): Mailer {
  const c = config();
  cached ??= c.smtpUrl
    ? lazySmtp(c.smtpUrl, c.mailFrom)
    : sesMailer(c.region, c.mailFrom, c.sesConfigurationSet);
  return cached;
}

function lazySmtp(url: string, from: string): Mailer {
  let smtp: Promise<Mailer> | undefined;
  return {
    async send(message) {
      smtp ??= import('./smtp.js').then((m) => m.smtpMailer(url, from));
      await (await smtp).send(message);
    },
  };
}
