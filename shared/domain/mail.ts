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

/** `email`: confirms a new address from account settings before it replaces the old one. */
export type LinkPurpose = 'verify' | 'reset' | 'email';

const PAGES: Readonly<Record<LinkPurpose, string>> = {
  verify: '/verify-email',
  reset: '/reset-password',
  email: '/confirm-email',
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

export function emailChangeMail(to: string, link: string): MailMessage {
  return message(
    to,
    'Confirm your new email address',
    [
      'You asked to use this address for your Gatehouse account. Please confirm it.',
      'The link works once, for 24 hours. Until then your account keeps its old address.',
      'If you did not ask for this, ignore this message: nothing changes.',
    ],
    link,
    'Use this email address',
  );
}

/**
 * To the current address when someone asks to move the account to another one: nothing changes
 * until the new address confirms, and this says so, so a stolen session is noticed. No link.
 */
export function emailChangeNotice(to: string, newAddress: string): MailMessage {
  const lines = [
    `Someone signed in to your Gatehouse account asked to change its email address to ${newAddress}.`,
    'Nothing changes until that address confirms it.',
    'If this was not you, change your password now and sign out your other sessions in your account settings.',
  ];
  const text = [...lines, '', '— Gatehouse'].join('\n');
  const html = [...lines.map((line) => `<p>${escapeHtml(line)}</p>`), '<p>— Gatehouse</p>'].join('\n');
  return { to, subject: 'Your email address is about to change', text, html };
}
