/**
 * The mail port: what the domain sends, never how. Messages are plain and short, as text and as
 * HTML, and every link points at the portal (IDM_PUBLIC_URL). The adapters live in shared/mail/
 * (SES in AWS, SMTP locally); this module has no I/O, so its texts are unit-tested as they are.
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export type LinkPurpose = 'verify' | 'reset';

const PAGES: Readonly<Record<LinkPurpose, string>> = {
  verify: '/verify-email',
  reset: '/reset-password',
};

/**
 * The portal link that carries a one-time token. The token travels in the fragment, which
 * browsers never send to a server, so it stays out of access logs and Referer headers.
 */
export function accountLink(publicUrl: string, purpose: LinkPurpose, token: string): string {
  const base = publicUrl.replace(/\/+$/, '');
  return `${base}${PAGES[purpose]}#token=${encodeURIComponent(token)}`;
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function message(to: string, subject: string, lines: string[], link: string, action: string): MailMessage {
  const [intro, ...rest] = lines;
  const text = [intro, '', `${action}: ${link}`, '', ...rest, '', '— Gatehouse'].join('\n');
  const html = [
    `<p>${escapeHtml(intro ?? '')}</p>`,
    `<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p>`,
    ...rest.map((line) => `<p>${escapeHtml(line)}</p>`),
    '<p>— Gatehouse</p>',
  ].join('\n');
  return { to, subject, text, html };
}

export function verificationMail(to: string, link: string): MailMessage {
  return message(
    to,
    'Confirm your email address',
    [
      'Welcome to Gatehouse. Please confirm that this is your email address.',
      'The link works once, for 24 hours.',
      'If you did not create an account, ignore this message.',
    ],
    link,
    'Confirm your email address',
  );
}

export function resetMail(to: string, link: string): MailMessage {
  return message(
    to,
    'Reset your password',
    [
      'Someone (hopefully you) asked to reset the password of your Gatehouse account.',
      'The link works once, for 1 hour. Resetting signs you out everywhere.',
      'If you did not ask for this, ignore this message: your password stays as it is.',
    ],
    link,
    'Choose a new password',
  );
}
