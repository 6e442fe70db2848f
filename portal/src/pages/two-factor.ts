import { startRegistration } from '@simplewebauthn/browser';
import { render } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError, api } from '../api.js';
import { CopyButton, Field, FormError, html, Loading, useLoad } from '../ui.js';

/** GET /api/account/two-factor. */
interface TwoFactor {
  enabled: boolean;
  totp: boolean;
  recoveryCodesLeft: number;
  passkeys: { id: string; name: string; createdAt: string; lastUsedAt: string | null }[];
}

interface Enrolment {
  secret: string;
  uri: string;
  qrCode: string;
}

const day = (iso: string) => new Date(iso).toLocaleDateString();

/** Ten codes, shown once, with a way to copy them; they are never shown again. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return html`<div class="notice recovery-codes" role="status">
    <h4>Your recovery codes</h4>
    <p>
      Keep these somewhere safe, apart from your device. Each code signs you in once if you lose your
      authenticator app or passkey. They are shown only now.
    </p>
    <ul class="codes" aria-label="Recovery codes">
      ${codes.map((c) => html`<li><code>${c}</code></li>`)}
    </ul>
    <${CopyButton} value=${codes.join('\n')} label="Copy the codes" />
    <button type="button" class="secondary small" onClick=${onDone}>I have saved them</button>
  </div>`;
}

/**
 * Account settings' "Two-factor sign-in" section: an authenticator app (TOTP, with a QR code and
 * a confirming code), recovery codes, and passkeys. Every change asks for the current password.
 */
export function TwoFactorSection() {
  const state = useLoad(() => api<TwoFactor>('GET', '/api/account/two-factor'), []);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState('');
  const [enrolment, setEnrolment] = useState<Enrolment>();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState('');
  const [codes, setCodes] = useState<string[]>();
  const [passkeyName, setPasskeyName] = useState('');

  /** Runs one change; a wrong password shows next to the password field. */
  const run = (label: string, fn: () => Promise<void>) => async (e?: Event) => {
    e?.preventDefault();
    setBusy(label);
    setError('');
    setPasswordError('');
    setCodeError('');
    try {
      await fn();
    } catch (failure) {
      const message = failure instanceof Error ? failure.message : 'Something went wrong.';
      const field = failure instanceof ApiError ? failure.field : undefined;
      if (field === 'password') setPasswordError(message);
      else if (field === 'code') setCodeError(message);
      else setError(message);
    } finally {
      setBusy('');
    }
  };
  const withPassword = (fn: () => Promise<void>) => async () => {
    if (!password) {
      setPasswordError('Enter your current password first.');
      return;
    }
    await fn();
  };

  if (state.error)
    return html`<section><h2>Two-factor sign-in</h2><${FormError} error=${state.error} /></section>`;
  const tf = state.data;
  if (!tf)
    return html`<section><h2>Two-factor sign-in</h2><${Loading} what="two-factor settings" /></section>`;

  const startTotp = run(
    'totp',
    withPassword(async () => {
      setEnrolment(await api<Enrolment>('POST', '/api/account/two-factor/totp', { password }));
      setCode('');
    }),
  );
  const confirmTotp = run('confirm', async () => {
    const out = await api<{ twoFactor: TwoFactor; recoveryCodes: string[] | null }>(
      'POST',
      '/api/account/two-factor/totp/confirm',
      { code },
    );
    setEnrolment(undefined);
    state.setData(out.twoFactor);
    if (out.recoveryCodes) setCodes(out.recoveryCodes);
  });
  const removeTotp = run(
    'remove-totp',
    withPassword(async () => {
      state.setData(await api<TwoFactor>('DELETE', '/api/account/two-factor/totp', { password }));
    }),
  );
  const renewCodes = run(
    'codes',
    withPassword(async () => {
      const out = await api<{ recoveryCodes: string[] }>('POST', '/api/account/two-factor/recovery-codes', {
        password,
      });
      setCodes(out.recoveryCodes);
      state.reload();
    }),
  );
  const addPasskey = run(
    'passkey',
    withPassword(async () => {
      const optionsJSON = await api<Parameters<typeof startRegistration>[0]['optionsJSON']>(
        'POST',
        '/api/account/two-factor/passkeys/options',
        { password },
      );
      let credential: unknown;
      try {
        credential = await startRegistration({ optionsJSON });
      } catch (failure) {
        const name = (failure as { name?: string })?.name;
        throw new Error(
          name === 'InvalidStateError'
            ? 'This device already holds a passkey for your account.'
            : name === 'NotAllowedError' || name === 'AbortError'
              ? 'The passkey prompt was closed or timed out; try again.'
              : 'This browser could not create a passkey here.',
        );
      }
      const out = await api<{ twoFactor: TwoFactor; recoveryCodes: string[] | null }>(
        'POST',
        '/api/account/two-factor/passkeys',
        { credential, name: passkeyName },
      );
      setPasskeyName('');
      state.setData(out.twoFactor);
      if (out.recoveryCodes) setCodes(out.recoveryCodes);
    }),
  );
  const removePasskey = (id: string) =>
    run(
      `remove-${id}`,
      withPassword(async () => {
        state.setData(
          await api<TwoFactor>('DELETE', `/api/account/two-factor/passkeys/${encodeURIComponent(id)}`, {
            password,
          }),
        );
      }),
    );

  return html`<section class="two-factor" aria-labelledby="two-factor-heading">
    <h2 id="two-factor-heading">Two-factor sign-in</h2>
    <p role="status" data-testid="two-factor-status">
      ${
        tf.enabled
          ? html`Two-factor sign-in is <strong>on</strong>: signing in with your password also asks for your app or a passkey.`
          : html`Two-factor sign-in is <strong>off</strong>: your password alone signs you in.`
      }
    </p>
    ${codes && html`<${RecoveryCodes} codes=${codes} onDone=${() => setCodes(undefined)} />`}
    <${FormError} error=${error} />
    <${Field}
      id="two-factor-password"
      label="Current password"
      type="password"
      autocomplete="current-password"
      hint="Asked before any change to two-factor sign-in."
      value=${password}
      error=${passwordError}
      onInput=${setPassword}
    />

    <h3>Authenticator app</h3>
    ${
      tf.totp
        ? html`<p>An authenticator app is set up.</p>
            <button type="button" class="danger" disabled=${!!busy} onClick=${removeTotp}>
              ${busy === 'remove-totp' ? 'Removing…' : 'Remove the authenticator app'}
            </button>`
        : enrolment
          ? html`<form onSubmit=${confirmTotp} novalidate>
              <p>Scan this code with your authenticator app, or type the key into it.</p>
              <img class="qr" src=${enrolment.qrCode} alt="QR code for your authenticator app" width="200" height="200" />
              <p>Key: <code data-testid="totp-secret">${enrolment.secret}</code></p>
              <${Field}
                id="two-factor-code"
                label="Code from the app"
                autocomplete="one-time-code"
                value=${code}
                error=${codeError}
                onInput=${setCode}
              />
              <button type="submit" disabled=${!!busy}>${busy === 'confirm' ? 'Checking…' : 'Turn on'}</button>
              <button type="button" class="secondary" onClick=${() => setEnrolment(undefined)}>Cancel</button>
            </form>`
          : html`<p>Use an app such as FreeOTP, Aegis or Google Authenticator for six-digit codes.</p>
              <button type="button" disabled=${!!busy} onClick=${startTotp}>
                ${busy === 'totp' ? 'Starting…' : 'Set up an authenticator app'}
              </button>`
    }

    <h3>Recovery codes</h3>
    <p>
      ${
        tf.enabled
          ? `${tf.recoveryCodesLeft} of 10 recovery codes left.`
          : 'Recovery codes come with your first authenticator app or passkey.'
      }
    </p>
    ${
      tf.enabled &&
      html`<button type="button" class="secondary" disabled=${!!busy} onClick=${renewCodes}>
        ${busy === 'codes' ? 'Creating…' : 'Create new recovery codes'}
      </button>`
    }

    <h3>Passkeys</h3>
    ${
      tf.passkeys.length === 0
        ? html`<p>No passkeys yet. A passkey signs you in with your device's screen lock, with or without your password.</p>`
        : html`<ul class="passkeys">
            ${tf.passkeys.map(
              (p) => html`<li>
                <strong>${p.name}</strong>, added ${day(p.createdAt)}${p.lastUsedAt ? `, last used ${day(p.lastUsedAt)}` : ''}
                <button
                  type="button"
                  class="danger small"
                  aria-label=${`Remove passkey ${p.name}`}
                  disabled=${!!busy}
                  onClick=${removePasskey(p.id)}
                >
                  ${busy === `remove-${p.id}` ? 'Removing…' : 'Remove'}
                </button>
              </li>`,
            )}
          </ul>`
    }
    <${Field}
      id="passkey-name"
      label="Name of the new passkey"
      hint="Optional, e.g. the device it lives on."
      value=${passkeyName}
      onInput=${setPasskeyName}
    />
    <button type="button" disabled=${!!busy} onClick=${addPasskey}>
      ${busy === 'passkey' ? 'Waiting for your device…' : 'Add a passkey'}
    </button>
  </section>`;
}

/**
 * Renders the section into `container` (the account settings page mounts it there); returns a
 * function that unmounts it.
 */
export function renderTwoFactor(container: HTMLElement): () => void {
  render(html`<${TwoFactorSection} />`, container);
  return () => render(null, container);
}
