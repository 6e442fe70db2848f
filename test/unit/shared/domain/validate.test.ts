import { describe, expect, it } from 'vitest';
import {
  applicationFields,
  email,
  grantTypes,
  httpUrl,
  httpVerb,
  LIMITS,
  memberRole,
  nickName,
  optionalText,
  organizationFields,
  password,
  permissionFields,
  positiveInt,
  postLogoutRedirectUris,
  resourcePath,
  roleName,
  text,
} from '../../../../shared/domain/validate.js';
import { thrown } from '../../support/errors.js';

/** The validation error `fn` throws, as the portal and the CLI show it. */
function refusal(fn: () => unknown) {
  const { kind, field, message } = thrown(fn);
  return { kind, field, message };
}

const invalid = (field: string, message: string) => ({ kind: 'validation', field, message });

describe('text', () => {
  it('trims and returns the value', () => {
    expect(text('  Alice  ', 'name')).toBe('Alice');
    expect(text('\nAlice\t', 'name')).toBe('Alice');
  });

  it.each([undefined, null, 5, {}, ['a']])('calls %j missing', (value) => {
    expect(refusal(() => text(value, 'name'))).toEqual(invalid('name', 'name is required.'));
  });

  it.each(['', '   '])('calls %j missing', (value) => {
    expect(refusal(() => text(value, 'name'))).toEqual(invalid('name', 'name is required.'));
  });

  it('counts a minimum after trimming', () => {
    expect(text('abc', 'name', { min: 3 })).toBe('abc');
    expect(refusal(() => text(' ab ', 'name', { min: 3 }))).toEqual(
      invalid('name', 'name must be at least 3 characters.'),
    );
  });

  it('allows 200 characters by default, not 201', () => {
    expect(text(` ${'a'.repeat(200)} `, 'name')).toHaveLength(200);
    expect(refusal(() => text('a'.repeat(201), 'name'))).toEqual(
      invalid('name', 'name must be at most 200 characters.'),
    );
  });

  it('takes another maximum', () => {
    expect(text('abcd', 'code', { max: 4 })).toBe('abcd');
    expect(refusal(() => text('abcde', 'code', { max: 4 }))).toEqual(
      invalid('code', 'code must be at most 4 characters.'),
    );
  });

  it.each([
    ['NUL', 'a\u0000b'],
    ['newline', 'a\nb'],
    ['tab', 'a\tb'],
    ['unit separator', 'a\u001fb'],
    ['DEL', 'a\u007fb'],
  ])('refuses a %s inside the value', (_name, value) => {
    expect(refusal(() => text(value, 'name'))).toEqual(invalid('name', 'name contains control characters.'));
  });

  it('accepts non-ASCII letters', () => {
    expect(text('Zoë Ørsted 日本', 'name')).toBe('Zoë Ørsted 日本');
  });
});

describe('optionalText', () => {
  it.each([undefined, null, ''])('turns %j into the empty string', (value) => {
    expect(optionalText(value, 'description')).toBe('');
  });

  it('trims, and accepts a value of spaces as empty', () => {
    expect(optionalText('  A shop ', 'description')).toBe('A shop');
    expect(optionalText('   ', 'description')).toBe('');
  });

  it('allows 1000 characters by default, or the maximum given', () => {
    expect(optionalText('a'.repeat(1000), 'description')).toHaveLength(1000);
    expect(refusal(() => optionalText('a'.repeat(1001), 'description'))).toEqual(
      invalid('description', 'description must be at most 1000 characters.'),
    );
    expect(refusal(() => optionalText('abc', 'description', 2))).toEqual(
      invalid('description', 'description must be at most 2 characters.'),
    );
  });

  it('refuses control characters and non-strings', () => {
    expect(refusal(() => optionalText('a\u0007b', 'description'))).toEqual(
      invalid('description', 'description contains control characters.'),
    );
    expect(refusal(() => optionalText(42, 'description'))).toMatchObject({
      kind: 'validation',
      field: 'description',
    });
  });
});

describe('email', () => {
  it('lowercases and trims an address', () => {
    expect(email(' Alice@Example.COM ')).toBe('alice@example.com');
    expect(email('a.b+tag@sub.example.org')).toBe('a.b+tag@sub.example.org');
  });

  it.each([
    'alice',
    'alice@example',
    'alice@example.c',
    'al ice@example.com',
    'alice@@example.com',
    '@example.com',
    'alice@exa mple.com',
  ])('refuses %j', (value) => {
    expect(refusal(() => email(value))).toEqual(invalid('email', 'email must be an email address.'));
  });

  it('allows a local part of 64 characters, not 65', () => {
    expect(email(`${'a'.repeat(64)}@example.com`)).toHaveLength(76);
    expect(refusal(() => email(`${'a'.repeat(65)}@example.com`))).toEqual(
      invalid('email', 'email must be an email address.'),
    );
  });

  it('allows 254 characters in all, not 255', () => {
    const domain = (length: number) => `${'d'.repeat(length - 4)}.com`;
    expect(email(`alice@${domain(248)}`)).toHaveLength(254);
    expect(refusal(() => email(`alice@${domain(249)}`))).toEqual(
      invalid('email', 'email must be at most 254 characters.'),
    );
  });

  it('names the field it is given, and calls a missing address missing', () => {
    expect(refusal(() => email('nope', 'username'))).toEqual(
      invalid('username', 'username must be an email address.'),
    );
    expect(refusal(() => email(undefined))).toEqual(invalid('email', 'email is required.'));
  });
});

describe('nickName', () => {
  const rule = 'nickName must be 2 to 32 letters, digits, dots, dashes or underscores.';

  it.each(['al', 'alice', 'a.b_c-d', 'A1', '9lives', 'a'.repeat(32)])('accepts %j', (value) => {
    expect(nickName(value)).toBe(value);
  });

  it.each(['a', '.alice', '-alice', '_alice', 'al ice', 'jösé', 'a@b', 'al/ice'])('refuses %j', (value) => {
    expect(refusal(() => nickName(value))).toEqual(invalid('nickName', rule));
  });

  it('refuses 33 characters as too long', () => {
    expect(refusal(() => nickName('a'.repeat(33)))).toEqual(
      invalid('nickName', 'nickName must be at most 32 characters.'),
    );
  });

  it('names the field it is given', () => {
    expect(refusal(() => nickName('x', 'nick'))).toMatchObject({ field: 'nick' });
  });
});

describe('password', () => {
  it('accepts 8 characters, kept as typed (no trimming)', () => {
    expect(password('12345678')).toBe('12345678');
    expect(password(' pass word ')).toBe(' pass word ');
  });

  it.each(['', '1234567', undefined, 12345678])('refuses %j as too short', (value) => {
    expect(refusal(() => password(value))).toEqual(
      invalid('password', 'password must be at least 8 characters.'),
    );
  });

  it('allows 72 bytes, not 73', () => {
    expect(password('a'.repeat(72))).toHaveLength(72);
    expect(refusal(() => password('a'.repeat(73)))).toEqual(
      invalid('password', 'password must be at most 72 bytes.'),
    );
  });

  it('counts UTF-8 bytes, not characters', () => {
    expect(password('é'.repeat(36))).toHaveLength(36); // 72 bytes
    expect(refusal(() => password('é'.repeat(37)))).toEqual(
      invalid('password', 'password must be at most 72 bytes.'),
    );
    expect(refusal(() => password(`${'a'.repeat(70)}€`))).toEqual(
      invalid('password', 'password must be at most 72 bytes.'),
    );
  });

  it('never repeats the password in its message', () => {
    const secret = 'hunter2';
    expect(thrown(() => password(secret)).message).not.toContain(secret);
  });
});

describe('httpUrl', () => {
  it.each(['https://shop.example/callback', 'http://localhost:8080/cb?x=1', 'HTTPS://Shop.Example'])(
    'accepts %j unchanged',
    (value) => {
      expect(httpUrl(value, 'url')).toBe(value);
    },
  );

  it('trims the value', () => {
    expect(httpUrl('  https://shop.example  ', 'url')).toBe('https://shop.example');
  });

  it.each(['ftp://files.example', '/callback', 'shop.example', 'javascript:alert(1)', 'https://'])(
    'refuses %j as not an absolute http(s) URL',
    (value) => {
      expect(refusal(() => httpUrl(value, 'callbackUrl'))).toEqual(
        invalid('callbackUrl', 'callbackUrl must be an absolute http(s) URL.'),
      );
    },
  );

  it.each(['https://user:pw@shop.example/cb', 'https://user@shop.example/cb', 'https://:pw@shop.example/'])(
    'refuses credentials in %j',
    (value) => {
      expect(refusal(() => httpUrl(value, 'callbackUrl'))).toEqual(
        invalid('callbackUrl', 'callbackUrl must not contain credentials.'),
      );
    },
  );

  it('allows a fragment unless told not to (redirect URIs, RFC 6749 §3.1.2)', () => {
    expect(httpUrl('https://shop.example/#top', 'url')).toBe('https://shop.example/#top');
    for (const value of ['https://shop.example/cb#top', 'https://shop.example/cb#']) {
      expect(refusal(() => httpUrl(value, 'callbackUrl', { allowFragment: false }))).toEqual(
        invalid('callbackUrl', 'callbackUrl must not contain a fragment.'),
      );
    }
    expect(httpUrl('https://shop.example/cb', 'callbackUrl', { allowFragment: false })).toBe(
      'https://shop.example/cb',
    );
  });

  it('allows 2000 characters, not 2001', () => {
    const url = (length: number) => `https://shop.example/${'a'.repeat(length - 21)}`;
    expect(httpUrl(url(2000), 'url')).toHaveLength(2000);
    expect(refusal(() => httpUrl(url(2001), 'url'))).toEqual(
      invalid('url', 'url must be at most 2000 characters.'),
    );
  });
});

describe('positiveInt', () => {
  it.each([
    [1, 1],
    ['1', 1],
    ['42', 42],
    ['007', 7],
    [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    ['999999999999999', 999_999_999_999_999],
  ])('reads %j as %i', (value, expected) => {
    expect(positiveInt(value, 'id')).toBe(expected);
  });

  it.each([
    0,
    -1,
    1.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.MAX_SAFE_INTEGER + 1,
    '0',
    '-1',
    '1.5',
    '1e3',
    ' 1',
    '',
    '0x10',
    '1000000000000000',
    true,
    null,
    undefined,
  ])('refuses %j', (value) => {
    expect(refusal(() => positiveInt(value, 'id'))).toEqual(invalid('id', 'id must be a positive integer.'));
  });
});

describe('httpVerb', () => {
  it.each([
    ['GET', 'GET'],
    ['get', 'GET'],
    ['Post', 'POST'],
    ['PUT', 'PUT'],
    ['delete', 'DELETE'],
    ['patch', 'PATCH'],
  ])('reads %j as %s', (value, verb) => {
    expect(httpVerb(value)).toBe(verb);
  });

  it.each(['HEAD', 'OPTIONS', 'TRACE', '', ' GET', 5, undefined])('refuses %j', (value) => {
    expect(refusal(() => httpVerb(value))).toEqual(
      invalid('verb', 'verb must be one of GET, PUT, POST, DELETE, PATCH.'),
    );
  });

  it('names the field it is given', () => {
    expect(refusal(() => httpVerb('TRACE', 'method'))).toMatchObject({ field: 'method' });
  });
});

describe('resourcePath', () => {
  it('accepts a path starting with "/", trimmed', () => {
    expect(resourcePath('/things')).toBe('/things');
    expect(resourcePath('  /things/{id}?x=1 ')).toBe('/things/{id}?x=1');
    expect(resourcePath('/')).toBe('/');
  });

  it('refuses a path without a leading "/"', () => {
    expect(refusal(() => resourcePath('things'))).toEqual(invalid('path', 'path must start with "/".'));
  });

  it('refuses spaces inside the path', () => {
    expect(refusal(() => resourcePath('/my things'))).toEqual(
      invalid('path', 'path must not contain spaces.'),
    );
    expect(refusal(() => resourcePath('/a\u00a0b'))).toEqual(
      invalid('path', 'path must not contain spaces.'),
    );
  });

  it('refuses control characters, a missing path and more than 500 characters', () => {
    expect(refusal(() => resourcePath('/a\tb'))).toEqual(
      invalid('path', 'path contains control characters.'),
    );
    expect(refusal(() => resourcePath(''))).toEqual(invalid('path', 'path is required.'));
    expect(resourcePath(`/${'a'.repeat(499)}`)).toHaveLength(500);
    expect(refusal(() => resourcePath(`/${'a'.repeat(500)}`))).toEqual(
      invalid('path', 'path must be at most 500 characters.'),
    );
  });
});

describe('grantTypes', () => {
  const all = ['authorization_code', 'implicit', 'password', 'client_credentials', 'refresh_token'];

  it.each([undefined, null, ''])('gives every grant type for %j', (value) => {
    expect(grantTypes(value)).toEqual(all);
  });

  it('reads a comma-separated list, trimming each name', () => {
    expect(grantTypes('password, refresh_token')).toEqual(['password', 'refresh_token']);
  });

  it('reads an array and drops repeats', () => {
    expect(grantTypes(['implicit', 'implicit', 'client_credentials'])).toEqual([
      'implicit',
      'client_credentials',
    ]);
  });

  it('refuses an unknown name, quoting it', () => {
    expect(refusal(() => grantTypes('password,magic'))).toEqual(
      invalid(
        'grantTypes',
        'grantTypes may contain only authorization_code, implicit, password, client_credentials, refresh_token; "magic" is unknown.',
      ),
    );
    expect(refusal(() => grantTypes('password,'))).toMatchObject({
      message: expect.stringContaining('"" is unknown'),
    });
  });

  it('refuses an empty list', () => {
    expect(refusal(() => grantTypes([]))).toEqual(
      invalid('grantTypes', 'grantTypes must name at least one grant type.'),
    );
  });

  it('names the field it is given', () => {
    expect(refusal(() => grantTypes('magic', '--grant-types'))).toMatchObject({ field: '--grant-types' });
  });
});

describe('field rules shared by the portal, the CLI and /v1', () => {
  it('accepts a member role and names the allowed ones for anything else', () => {
    expect(memberRole('owner')).toBe('owner');
    expect(memberRole('member')).toBe('member');
    expect(thrown(() => memberRole('admin'))).toMatchObject({
      field: 'role',
      message: 'role must be member or owner, got "admin".',
    });
    expect(thrown(() => memberRole(undefined)).message).toBe('role must be member or owner.');
  });

  it('applies one length limit to organization, role and permission names, whoever writes them', () => {
    const long = 'x'.repeat(LIMITS.organizationName + 1);
    expect(thrown(() => organizationFields({ name: long })).field).toBe('name');
    expect(organizationFields({ name: ' Acme ' })).toEqual({ name: 'Acme', description: '' });
    expect(thrown(() => roleName('x'.repeat(LIMITS.roleName + 1))).field).toBe('name');
    const description = 'd'.repeat(LIMITS.permissionDescription + 1);
    expect(thrown(() => permissionFields({ name: 'p', description, verb: 'GET', path: '/a' })).field).toBe(
      'description',
    );
  });

  it('normalises a permission (verb upper-cased) and refuses a path without a leading slash', () => {
    expect(permissionFields({ name: 'read', verb: 'get', path: '/orders' })).toEqual({
      name: 'read',
      description: '',
      verb: 'GET',
      path: '/orders',
    });
    expect(thrown(() => permissionFields({ name: 'read', verb: 'GET', path: 'orders' })).field).toBe('path');
  });

  it('checks an application, refusing a callback URL with a fragment (RFC 6749 §3.1.2)', () => {
    const input = {
      name: 'Shop',
      description: 'A shop',
      url: 'https://shop.example',
      callbackUrl: 'https://shop.example/cb',
    };
    expect(applicationFields(input).grantTypes).toContain('authorization_code');
    expect(
      thrown(() => applicationFields({ ...input, callbackUrl: 'https://shop.example/cb#x' })).field,
    ).toBe('callbackUrl');
    expect(
      thrown(() => applicationFields({ ...input, name: 'n'.repeat(LIMITS.applicationName + 1) })).field,
    ).toBe('name');
  });

  it('post-logout redirect URIs (RP-Initiated Logout 1.0 §3): a list or one URL, none by default', () => {
    const input = {
      name: 'S',
      description: 'D',
      url: 'https://s.example',
      callbackUrl: 'https://s.example/cb',
    };
    expect(applicationFields(input).postLogoutRedirectUris).toEqual([]);
    expect(postLogoutRedirectUris('https://shop.example/bye')).toEqual(['https://shop.example/bye']);
    expect(postLogoutRedirectUris(['https://a.example/x', 'https://a.example/x'])).toEqual([
      'https://a.example/x',
    ]);
    expect(refusal(() => postLogoutRedirectUris(['https://a.example/x#f']))).toEqual(
      invalid('postLogoutRedirectUris', 'postLogoutRedirectUris must not contain a fragment.'),
    );
    const many = Array.from(
      { length: LIMITS.postLogoutRedirectUris + 1 },
      (_, i) => `https://a.example/${i}`,
    );
    expect(refusal(() => postLogoutRedirectUris(many)).field).toBe('postLogoutRedirectUris');
  });
});
