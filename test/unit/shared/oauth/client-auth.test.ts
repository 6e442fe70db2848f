import { describe, expect, it } from 'vitest';
import { sha256 } from '../../../../shared/crypto.js';
import { presentedClient, verifyClient } from '../../../../shared/oauth/client-auth.js';
import { thrown } from '../../support/errors.js';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const form = (entries: Record<string, string> = {}) => new Map(Object.entries(entries));

describe('presentedClient (RFC 6749 §2.3.1)', () => {
  it('reads HTTP Basic, trying the form-decoded and the raw secret', () => {
    expect(presentedClient(basic('app', 'a%2Bb'), form())).toEqual({
      clientId: 'app',
      secrets: ['a+b', 'a%2Bb'],
      method: 'client_secret_basic',
    });
  });

  it('reads client_id and client_secret from the body', () => {
    expect(presentedClient(undefined, form({ client_id: 'app', client_secret: 's' }))).toEqual({
      clientId: 'app',
      secrets: ['s'],
      method: 'client_secret_post',
    });
  });

  it('refuses two methods at once, a mismatched client_id, and other schemes', () => {
    expect(thrown(() => presentedClient(basic('app', 's'), form({ client_secret: 's' })))).toMatchObject({
      code: 'invalid_request',
    });
    expect(thrown(() => presentedClient(basic('app', 's'), form({ client_id: 'other' })))).toMatchObject({
      code: 'invalid_request',
    });
    expect(thrown(() => presentedClient('Bearer x', form()))).toMatchObject({
      code: 'invalid_client',
      status: 401,
    });
    expect(thrown(() => presentedClient(basic('', 's'), form()))).toMatchObject({ code: 'invalid_client' });
  });

  it('asks for authentication when none was sent, and for the secret when only the id was', () => {
    expect(thrown(() => presentedClient(undefined, form())).message).toMatch(/required/);
    expect(thrown(() => presentedClient(undefined, form({ client_id: 'app' }))).message).toMatch(
      /client_secret/,
    );
  });
});

describe('verifyClient', () => {
  const client = {
    clientId: 'app',
    appId: 1,
    name: 'App',
    secretHash: sha256('right'),
    callbackUrl: 'https://a.example/cb',
    grantTypes: ['client_credentials' as const],
  };
  const presented = (secret: string) => ({
    clientId: 'app',
    secrets: [secret],
    method: 'client_secret_post' as const,
  });

  it('accepts the right secret and refuses a wrong one or an unknown client alike', () => {
    expect(verifyClient(client, presented('right'))).toBe(client);
    const wrong = thrown(() => verifyClient(client, presented('wrong')));
    const unknown = thrown(() => verifyClient(undefined, presented('right')));
    expect(wrong).toMatchObject({ code: 'invalid_client', status: 401 });
    expect(unknown.message).toBe(wrong.message);
  });
});
