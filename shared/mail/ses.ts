import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import type { Mailer, MailMessage } from '../domain/mail.js';

/**
 * AWS: Amazon SES (API v2). The function's role may call `ses:SendEmail` on the sender's
 * identity and the configuration set only (infra/grants.ts).
 */
export function sesMailer(region: string, from: string, configurationSet?: string): Mailer {
  const client = new SESv2Client({ region });
  return {
    async send(message: MailMessage) {
      await client.send(
        new SendEmailCommand({
          FromEmailAddress: from,
          Destination: { ToAddresses: [message.to] },
          ...(configurationSet ? { ConfigurationSetName: configurationSet } : {}),
          Content: {
            Simple: {
              Subject: { Data: message.subject, Charset: 'UTF-8' },
              Body: {
                Text: { Data: message.text, Charset: 'UTF-8' },
                Html: { Data: message.html, Charset: 'UTF-8' },
              },
            },
          },
        }),
      );
    },
  };
}
