import type { Mailer, MailMessage } from '../domain/mail.js';
import { AwsJsonClient, defaultCredentials } from '../store/aws-json.js';

/**
 * AWS: Amazon SES (API v2), SendEmail as its REST-JSON request (`POST /v2/email/outbound-emails`,
 * signed for `ses` and sent to `email.<region>.amazonaws.com`) over the store's JSON client, so a
 * function that mails carries no SDK client (docs/decisions.md). The function's role may call
 * `ses:SendEmail` on the sender's identity and the configuration set only (infra/grants.ts).
 */
export function sesMailer(
  region: string,
  from: string,
  configurationSet?: string,
  /** Another endpoint than SES's own (tests). */
  endpoint?: string,
): Mailer {
  const client = new AwsJsonClient({
    service: 'ses',
    endpointPrefix: 'email',
    endpoint,
    region,
    credentials: defaultCredentials(),
    maxAttempts: 4,
  });
  return {
    async send(message: MailMessage) {
      await client.post('SendEmail', '/v2/email/outbound-emails', {
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
      });
    },
  };
}
