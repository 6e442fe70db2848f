import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { FormError, html, navigate, useForm } from '../ui.js';

/** The one-time token of a mailed link: it travels in the fragment, never to the server's logs. */
function linkToken(): string {
  return new URLSearchParams(location.hash.slice(1)).get('token') ?? '';
}

const signInWith = (email: string, flag: string) => `/signin?${flag}=1&email=${encodeURIComponent(email)}`;

/** /verify-email#token=…: confirms the address, then the sign-in form with the email filled in. */
export function VerifyEmail() {
  const [error, setError] = useState<string>();
  useEffect(() => {
    api<{ email: string }>('POST', '/api/email-verification/confirm', { token: linkToken() })
      .then(({ email }) => navigate(signInWith(email, 'verified'), true))
      .catch((e: unknown) => setError(e instanceof Error ? e.message : 'The link could not be checked.'));
  }, []);
  return html`<section class="narrow">
    <h1 tabindex="-1">Confirm your email address</h1>
    ${
      error
        ? html`<${FormError} error=${error} />
            <p><a href="/signin">Go to sign-in</a>, where you can ask for a new link.</p>`
        : html`<p role="status">Checking your link…</p>`
    }
  </section>`;
}

/** "Send me a link" for a purpose; the answer is the same whether or not the address has an account. */
function LinkRequest({ path, email, label }: { path: string; email: string; label: string }) {
  const form = useForm({ email });
  const [sent, setSent] = useState<string>();
  const send = form.submit(async (v) => {
    const answer = await api<{ message: string }>('POST', path, { email: v.email });
    setSent(answer.message);
  });
  return html`<form onSubmit=${send} novalidate>
    <${FormError} error=${form.errors._form} />
    ${sent && html`<p class="notice" role="status">${sent}</p>`}
    ${form.field('email', 'Email', { type: 'email', autocomplete: 'username', required: true })}
    <button type="submit" disabled=${form.busy}>${form.busy ? 'Sending…' : label}</button>
  </form>`;
}

/** The sign-in page's offer when the address is not confirmed yet. */
export function ResendVerification({ email }: { email: string }) {
  return html`<div class="notice">
    <p>Did not get the mail, or the link expired?</p>
    <${LinkRequest} path="/api/email-verification" email=${email} label="Send the link again" />
  </div>`;
}

/** /forgot-password: asks for a reset link. */
export function ForgotPassword() {
  const email = new URLSearchParams(location.search).get('email') ?? '';
  return html`<section class="narrow">
    <h1 tabindex="-1">Forgot your password?</h1>
    <p class="hint">Enter your email address; if it has an account, we email it a link to choose a new password (valid for an hour).</p>
    <${LinkRequest} path="/api/password-reset" email=${email} label="Email me a link" />
    <p><a href="/signin">Back to sign-in</a></p>
  </section>`;
}

/** /reset-password#token=…: a new password; every session of the account ends. */
export function ResetPassword() {
  const form = useForm({ password: '' });
  const [token] = useState(linkToken);
  const reset = form.submit(async (v) => {
    const { email } = await api<{ email: string }>('POST', '/api/password-reset/confirm', {
      token,
      password: v.password,
    });
    navigate(signInWith(email, 'reset'), true);
  });
  return html`<section class="narrow">
    <h1 tabindex="-1">Choose a new password</h1>
    <form onSubmit=${reset} novalidate>
      <${FormError} error=${form.errors._form ?? form.errors.token} />
      ${form.field('password', 'New password', {
        type: 'password',
        autocomplete: 'new-password',
        hint: 'At least 8 characters. You will be signed out everywhere.',
        required: true,
      })}
      <button type="submit" disabled=${form.busy}>${form.busy ? 'Saving…' : 'Set password'}</button>
    </form>
    <p><a href="/forgot-password">Ask for a new link</a></p>
  </section>`;
}
