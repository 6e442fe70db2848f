import { config } from '../config.js';
import type { Mailer } from '../domain/mail.js';
import { sesMailer } from './ses.js';
import { smtpMailer } from './smtp.js';

let cached: Mailer | undefined;

/** The process's mailer: SMTP when IDM_SMTP_URL is set (local runs), SES otherwise (AWS). */
export function mailer(): Mailer {
  const c = config();
  cached ??= c.smtpUrl
    ? smtpMailer(c.smtpUrl, c.mailFrom)
    : sesMailer(c.region, c.mailFrom, c.sesConfigurationSet);
  return cached;
}
