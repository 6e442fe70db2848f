import nodemailer from 'nodemailer';
import type { Mailer, MailMessage } from '../domain/mail.js';

/** Local runs: mail goes over SMTP (to the maildev catcher `npm start` runs). */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    async send(message: MailMessage) {
      await transport.sendMail({ from, ...message });
    },
  };
}
