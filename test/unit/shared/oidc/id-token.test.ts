import { describe, expect, it } from 'vitest';
import { consentLines, standardClaims } from '../../../../shared/oidc/claims.js';
import { halfHash, idTokenClaims } from '../../../../shared/oidc/id-token.js';
import type { User } from '../../../../shared/store/users.js';

const user: User = {
  id: 7,
  actorId: 9,
  email: 'alice@example.com',
  nickName: 'alice',
  displayName: 'Alice',
  createdAt: '2026-01-01T00:00:00.000Z',
  website: '',
};

describe('halfHash (at_hash, c_hash)', () => {
  it('matches the examples of OpenID Connect Core appendix A', () => {
    // A.3: the access token and its at_hash; A.4: the code and its c_hash.
    expect(halfHash('jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y')).toBe('77QmUPtjPfzWtF2AnpK9RQ');
    expect(halfHash('Qcb0Orv1zh30vL1MPRsbm-diHiMwcLyZvn1arpZv-Jxf_11jnpEX3Tgfvk')).toBe(
      'LDktKdoQak3Pk0cnXxCltA',
    );
  });
});

describe('standardClaims', () => {
  it('releases profile and email claims only for their scopes', () => {
    expect(standardClaims(user, new Set(['openid']))).toEqual({});
    expect(standardClaims(user, new Set(['openid', 'profile']))).toEqual({
      name: 'Alice',
      nickname: 'alice',
      preferred_username: 'alice',
    });
    expect(standardClaims({ ...user, website: 'https://a.example' }, new Set(['profile'])).website).toBe(
      'https://a.example',
    );
    expect(standardClaims(user, new Set(['email']))).toEqual({
      email: 'alice@example.com',
      email_verified: false,
    });
  });

  it('tells the consent page what each scope releases', () => {
    expect(consentLines('openid')).toEqual([
      'your Gatehouse user id',
      'the roles you and your organizations hold in it',
    ]);
    expect(consentLines('openid profile email')).toHaveLength(4);
  });
});

describe('idTokenClaims', () => {
  it('names issuer, subject, audience and times, and echoes nonce and auth_time when given', () => {
    const claims = idTokenClaims({
      issuer: 'https://idm.example',
      clientId: 'c1',
      subject: '7',
      authTime: 990,
      nonce: 'n-0S6_WzA2Mj',
      accessToken: 'jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y',
      claims: { email: 'alice@example.com' },
      lifetime: 600,
      now: 1000,
    });
    expect(claims).toEqual({
      iss: 'https://idm.example',
      sub: '7',
      aud: 'c1',
      iat: 1000,
      exp: 1600,
      auth_time: 990,
      nonce: 'n-0S6_WzA2Mj',
      at_hash: '77QmUPtjPfzWtF2AnpK9RQ',
      email: 'alice@example.com',
    });
  });

  it('leaves out what was not given, and a claim cannot override a registered one', () => {
    const claims = idTokenClaims({
      issuer: 'https://idm.example',
      clientId: 'c1',
      subject: '7',
      claims: { sub: 'forged', iss: 'forged' },
      lifetime: 60,
      now: 0,
    });
    expect(claims).toEqual({ iss: 'https://idm.example', sub: '7', aud: 'c1', iat: 0, exp: 60 });
  });
});
