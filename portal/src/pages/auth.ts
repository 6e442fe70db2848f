import { api, type SessionInfo } from '../api.js';
import { safeReturn } from '../return-path.js';
import { FormError, html, navigate, useForm } from '../ui.js';

/**
 * Sign-in. `?return=` comes from /oauth2/authorize (or a page that needed a session); it is
 * followed only when it is a same-origin path, else the portal's home page.
 */
export function SignIn({ onSignedIn }: { onSignedIn: (s: SessionInfo) => void }) {
  const params = new URLSearchParams(location.search);
  const form = useForm({ email: '', password: '' });
  const signIn = form.submit(async (v) => {
    const session = await api<SessionInfo>('POST', '/api/session', { email: v.email, password: v.password });
    const target = safeReturn(params.get('return'));
    onSignedIn(session);
    // The return path may be a server page (the OAuth consent page): a full navigation.
    if (params.has('return')) location.assign(target);
    else navigate('/', true);
  });
  const signUpHref = `/signup${params.has('return') ? `?return=${encodeURIComponent(params.get('return')!)}` : ''}`;
  return html`<section class="narrow">
    <h1 tabindex="-1">Sign in</h1>
    ${params.has('created') && html`<p class="notice" role="status">Your account is ready. Sign in to continue.</p>`}
    ${
      params.get('return')?.startsWith('/oauth2/') &&
      html`<p class="hint">An application asks you to sign in with your Gatehouse account.</p>`
    }
    <form onSubmit=${signIn} novalidate>
      <${FormError} error=${form.errors._form} />
      ${form.field('email', 'Email', { type: 'email', autocomplete: 'username', required: true })}
      ${form.field('password', 'Password', { type: 'password', autocomplete: 'current-password', required: true })}
      <button type="submit" disabled=${form.busy}>${form.busy ? 'Signing in…' : 'Sign in'}</button>
    </form>
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
