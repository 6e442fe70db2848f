import { describe, expect, it } from 'vitest';
import {
  accountLink,
  emailChangeMail,
  emailChangeNotice,
  resetMail,
  verificationMail,
} from '../../../../shared/domain/mail.js';

describe('account links', () => {
  it('point at the portal page for their purpose, with the token in the fragment', () => {
    expect(accountLink('https://idm.example.com', 'verify', 'abc_-123')).toBe(
      'https://idm.example.com/verify-email#token=abc_-123',
    );
    expect(accountLink('https://idm.example.com/', 'reset', 'abc')).toBe(
      'https://idm.example.com/reset-password#token=abc',
    );
  });

  it('encode what a URL fragment cannot carry as it is', () => {
    const link = new URL(accountLink('http://localhost:3000', 'reset', 'a b&c'));
    expect(link.hash).toBe('#token=a%20b%26c');
    expect(new URLSearchParams(link.hash.slice(1)).get('token')).toBe('a b&c');
  });
});

describe('mail texts', () => {
  const link = 'https://idm.example.com/verify-email#token=t0k3n';

  it('say what the verification link does, for how long, as text and HTML', () => {
    const mail = verificationMail('ann@example.com', link);
    expect(mail.to).toBe('ann@example.com');
    expect(mail.subject).toBe('Confirm your email address');
    expect(mail.text).toContain(`Confirm your email address: ${link}`);
    expect(mail.text).toContain('24 hours');
    expect(mail.html).toContain(`<a href="${link}">Confirm your email address</a>`);
  });

  it('say that a reset lasts an hour and signs you out everywhere', () => {
    const reset = 'https://idm.example.com/reset-password#token=x';
    const mail = resetMail('bob@example.com', reset);
    expect(mail.subject).toBe('Reset your password');
    expect(mail.text).toContain(`Choose a new password: ${reset}`);
    expect(mail.text).toMatch(/1 hour.*signs you out everywhere/);
    expect(mail.html).toContain(`href="${reset}"`);
  });

  it('escape the link in HTML', () => {
    const mail = resetMail('x@example.com', 'https://idm.example.com/reset-password#token=a"><script>');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&#34;&#62;&#60;script&#62;');
  });
});

describe('the address-change mail', () => {
  it('goes to the new address, links to /confirm-email and says the old address stays until then', () => {
    const link = accountLink('https://idm.example.com', 'email', 'k3y');
    expect(link).toBe('https://idm.example.com/confirm-email#token=k3y');
    const mail = emailChangeMail('new@example.com', link);
    expect(mail).toMatchObject({ to: 'new@example.com', subject: 'Confirm your new email address' });
    expect(mail.text).toContain(`Use this email address: ${link}`);
    expect(mail.text).toMatch(/24 hours\. Until then your account keeps its old address/);
    expect(mail.html).toContain(`<a href="${link}">Use this email address</a>`);
  });
});

describe('the notice to the current address', () => {
  it('names the new address, carries no link, and escapes what it quotes in HTML', () => {
    const mail = emailChangeNotice('old@example.com', 'new<b>@example.com');
    expect(mail).toMatchObject({ to: 'old@example.com', subject: 'Your email address is about to change' });
    expect(mail.text).toContain('to new<b>@example.com.');
    expect(mail.text).not.toContain('http');
    expect(mail.html).toContain('new&#60;b&#62;@example.com');
    expect(mail.html).not.toContain('<b>');
  });
});
