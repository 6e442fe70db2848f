import { startAuthentication } from '@simplewebauthn/browser';
import { useState } from 'preact/hooks';
import { ApiError, api, type SessionInfo } from '../api.js';
import { FormError, html, useForm } from '../ui.js';

/** What POST /api/session answers for an account with two-factor on. */
export interface SecondFactor {
  ticket: string;
  methods: ('totp' | 'recovery' | 'passkey')[];
  /** PublicKeyCredentialRequestOptionsJSON, when the account has passkeys. */
  passkey?: Parameters<typeof startAuthentication>[0]['optionsJSON'];
}

/** Words for a passkey prompt the person closed, or a browser without passkeys. */
function passkeyError(error: unknown): Error {
  if (error instanceof ApiError) return error;
  const name = (error as { name?: string })?.name;
  if (name === 'NotAllowedError' || name === 'AbortError') {
    return new Error('The passkey prompt was closed or timed out; try again.');
  }
  return new Error('This browser could not use a passkey here.');
}

async function verify(ticket: string, body: { code?: string; credential?: unknown }): Promise<SessionInfo> {
  return api<SessionInfo>('POST', '/api/session/verify', { ticket, ...body });
}

/**
 * The sign-in's second step: a code from the authenticator app or a recovery code, or the
 * account's passkey. `onExpired` goes back to the password form (the ticket lives 5 minutes).
 */
export function SecondFactorStep(props: {
  second: SecondFactor;
  onSignedIn: (s: SessionInfo) => void;
  onExpired: (message: string) => void;
}) {
  const { second } = props;
  const form = useForm({ code: '' });
  const [passkeyBusy, setPasskeyBusy] = useState(false);
  const [passkeyFailure, setPasskeyFailure] = useState('');
  const expired = (error: unknown) => {
    if (
      error instanceof ApiError &&
      error.status === 401 &&
      /took too long|finished already/.test(error.message)
    ) {
      props.onExpired(error.message);
      return true;
    }
    return false;
  };
  const submit = form.submit(async (v) => {
    try {
      props.onSignedIn(await verify(second.ticket, { code: v.code }));
    } catch (error) {
      if (!expired(error)) throw error;
    }
  });
  const usePasskey = async () => {
    setPasskeyBusy(true);
    setPasskeyFailure('');
    try {
      const credential = await startAuthentication({ optionsJSON: second.passkey! });
      props.onSignedIn(await verify(second.ticket, { credential }));
    } catch (error) {
      if (!expired(error)) setPasskeyFailure(passkeyError(error).message);
    } finally {
      setPasskeyBusy(false);
    }
  };
  const codes = second.methods.includes('totp') || second.methods.includes('recovery');
  return html`<div class="second-factor">
    <h2>Two-factor sign-in</h2>
    ${
      second.methods.includes('passkey') &&
      html`<p>
        <button type="button" disabled=${passkeyBusy} onClick=${usePasskey}>
          ${passkeyBusy ? 'Waiting for your passkey…' : 'Use your passkey'}
        </button>
      </p>
      <${FormError} error=${passkeyFailure} />`
    }
    ${
      codes &&
      html`<form onSubmit=${submit} novalidate>
        <${FormError} error=${form.errors._form} />
        ${form.field(
          'code',
          second.methods.includes('totp') ? 'Code from your authenticator app' : 'Recovery code',
          {
            autocomplete: 'one-time-code',
            hint: second.methods.includes('recovery')
              ? 'Lost your device? Enter one of your recovery codes instead.'
              : '',
            required: true,
          },
        )}
        <button type="submit" disabled=${form.busy}>${form.busy ? 'Checking…' : 'Verify'}</button>
      </form>`
    }
  </div>`;
}

/** "Use a passkey": no email or password; the browser offers this site's passkeys. */
export function PasskeySignIn({ onSignedIn }: { onSignedIn: (s: SessionInfo) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const start = async () => {
    setBusy(true);
    setError('');
    try {
      const { ticket, passkey } = await api<{ ticket: string; passkey: SecondFactor['passkey'] }>(
        'POST',
        '/api/session/passkey',
        {},
      );
      const credential = await startAuthentication({ optionsJSON: passkey! });
      onSignedIn(await verify(ticket, { credential }));
    } catch (e) {
      setError(passkeyError(e).message);
    } finally {
      setBusy(false);
    }
  };
  // Not "Sign in with…": the password form's own button is the one called "Sign in".
  return html`<div class="passkey-sign-in">
    <p>Have a passkey? Sign in without your password.</p>
    <button type="button" class="secondary" disabled=${busy} onClick=${start}>
      ${busy ? 'Waiting for your passkey…' : 'Use a passkey'}
    </button>
    <${FormError} error=${error} />
  </div>`;
}
