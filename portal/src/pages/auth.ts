import { useState } from 'preact/hooks';
import { ApiError, api, type SessionInfo } from '../api.js';
import { safeReturn } from '../return-path.js';
import { FormError, html, navigate, useForm } from '../ui.js';
import { ResendVerification } from './account-links.js';
import { PasskeySignIn, type SecondFactor, SecondFactorStep } from './sign-in-factors.js';

/**
 * Sign-in. `?return=` comes from /oauth2/authorize (or a page that needed a session); it is
 * followed only when it is a same-origin path, else the portal's home page.
 */
export function SignIn({ onSignedIn }: { onSignedIn: (s: SessionInfo) => void }) {
  const params = new URLSearchParams(location.search);
  const form = useForm({ email: params.get('email') ?? '', password: '' });
  const [unverified, setUnverified] = useState(false);
  const [second, setSecond] = useState<SecondFactor>();
  const [expired, setExpired] = useState('');
  const finish = (session: SessionInfo) => {
    const target = safeReturn(params.get('return'));
    onSignedIn(session);
    // The return path may be a server page (the OAuth consent page): a full navigation.
    if (params.has('return')) location.assign(target);
    else navigate('/', true);
  };
  const signIn = form.submit(async (v) => {
    setUnverified(false);
    setExpired('');
    const answer = await api<SessionInfo & { secondFactor?: SecondFactor }>('POST', '/api/session', {
      email: v.email,
      password: v.password,
    }).catch((error: unknown) => {
      // 403: the password was right, the email address is not confirmed yet.
      if (error instanceof ApiError && error.status === 403) setUnverified(true);
      throw error;
    });
    // Two-factor on: no session yet; the second step finishes the sign-in.
    if (answer.secondFactor) setSecond(answer.secondFactor);
    else finish(answer);
  });
  if (second) {
    return html`<section class="narrow">
      <h1 tabindex="-1">Sign in</h1>
      <${SecondFactorStep}
        second=${second}
        onSignedIn=${finish}
        onExpired=${(message: string) => {
          setSecond(undefined);
          setExpired(message);
          form.setValues((s) => ({ ...s, password: '' }));
        }}
      />
    </section>`;
  }
  const signUpHref = `/signup${params.has('return') ? `?return=${encodeURIComponent(params.get('return')!)}` : ''}`;
  return html`<section class="narrow">
    <h1 tabindex="-1">Sign in</h1>
    ${
      params.has('created') &&
      html`<p class="notice" role="status">Your account is ready. We emailed you a link to confirm your address; then sign in.</p>`
    }
    ${params.has('verified') && html`<p class="notice" role="status">Your email address is confirmed. Sign in to continue.</p>`}
    ${params.has('reset') && html`<p class="notice" role="status">Your password is changed. Sign in with the new one.</p>`}
    ${
      params.get('return')?.startsWith('/oauth2/') &&
      html`<p class="hint">An application asks you to sign in with your Gatehouse account.</p>`
    }
    <form onSubmit=${signIn} novalidate>
      <${FormError} error=${form.errors._form ?? expired} />
      ${form.field('email', 'Email', { type: 'email', autocomplete: 'username', required: true })}
      ${form.field('password', 'Password', { type: 'password', autocomplete: 'current-password', required: true })}
      <button type="submit" disabled=${form.busy}>${form.busy ? 'Signing in…' : 'Sign in'}</button>
    </form>
    ${unverified && html`<${ResendVerification} email=${form.values.email} />`}
    <${PasskeySignIn} onSignedIn=${finish} />
    <p><a href=${`/forgot-password${form.values.email ? `?email=${encodeURIComponent(form.values.email)}` : ''}`}>Forgot your password?</a></p>
    <p>No account yet? <a href=${signUpHref}>Create an account</a></p>
  </section>`;
}

export function SignUp() {
  const params = new URLSearchParams(location.search);
  const form = useForm({ email: '', displayName: '', password: '' });
  const signUp = form.submit(async (v) => {
    await api('POST', '/api/users', v);
    const back = params.get('return');
    navigate(`/signin?created=1${back ? `&return=${encodeURIComponent(back)}` : ''}`);
  });
  return html`<section class="narrow">
    <h1 tabindex="-1">Create an account</h1>
    <form onSubmit=${signUp} novalidate>
      <${FormError} error=${form.errors._form} />
      ${form.field('email', 'Email', { type: 'email', autocomplete: 'email', required: true })}
      ${form.field('displayName', 'Display name', { autocomplete: 'name', hint: 'How other people see you.' })}
      ${form.field('password', 'Password', {
        type: 'password',
        autocomplete: 'new-password',
        hint: 'At least 8 characters.',
        required: true,
      })}
      <button type="submit" disabled=${form.busy}>${form.busy ? 'Creating account…' : 'Create account'}</button>
    </form>
    <p>Already have an account? <a href="/signin">Sign in</a></p>
  </section>`;
}
