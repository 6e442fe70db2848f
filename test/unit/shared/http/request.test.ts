import { describe, expect, it } from 'vitest';
import {
  cookies,
  formBody,
  header,
  jsonBody,
  pathParam,
  queryParams,
  rawBody,
  requestOrigin,
} from '../../../../shared/http/request.js';
import { thrown } from '../../support/errors.js';

type HttpEvent = Parameters<typeof header>[0];

/** A payload 2.0 event with only the fields a test needs. */
function event(fields: Partial<HttpEvent> = {}): HttpEvent {
  return { headers: {}, ...fields } as HttpEvent;
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'content-type': 'application/json' };

describe('header', () => {
  it('finds a header whatever the case of its name or of the lookup', () => {
    const e = event({ headers: { 'Content-Type': 'text/plain', 'x-csrf-token': 't' } });
    expect(header(e, 'content-type')).toBe('text/plain');
    expect(header(e, 'CONTENT-TYPE')).toBe('text/plain');
    expect(header(e, 'X-CSRF-Token')).toBe('t');
  });

  it('answers undefined for a missing header, or no headers at all', () => {
    expect(header(event({ headers: { accept: '*/*' } }), 'authorization')).toBeUndefined();
    expect(
      header(event({ headers: undefined as unknown as HttpEvent['headers'] }), 'accept'),
    ).toBeUndefined();
  });
});

describe('rawBody', () => {
  it('decodes a base64-encoded body and passes a plain one as UTF-8', () => {
    expect(
      rawBody(event({ body: Buffer.from('héllo').toString('base64'), isBase64Encoded: true })).toString(),
    ).toBe('héllo');
    expect(rawBody(event({ body: 'héllo', isBase64Encoded: false })).toString()).toBe('héllo');
    expect(rawBody(event())).toHaveLength(0);
  });
});

describe('queryParams', () => {
  it('reads and decodes the query string', () => {
    const params = queryParams(event({ rawQueryString: 'a=1&b=two%20words&c=x+y&d=' }));
    expect(Object.fromEntries(params)).toEqual({ a: '1', b: 'two words', c: 'x y', d: '' });
  });

  it('reads a missing or empty query string as no parameters', () => {
    expect(queryParams(event()).size).toBe(0);
    expect(queryParams(event({ rawQueryString: '' })).size).toBe(0);
  });

  it('refuses a repeated parameter (RFC 6749 §3.1), naming it', () => {
    const error = thrown(() => queryParams(event({ rawQueryString: 'state=1&code=a&state=2' })));
    expect(error).toMatchObject({
      kind: 'validation',
      field: 'state',
      message: 'Parameter state is repeated.',
    });
  });
});

describe('formBody', () => {
  it('reads a form body, with a charset and in any case', () => {
    const body = 'grant_type=password&username=a%40example.com&password=p+w';
    for (const type of [
      'application/x-www-form-urlencoded',
      'Application/X-WWW-Form-Urlencoded; charset=UTF-8',
    ]) {
      const params = formBody(event({ headers: { 'Content-Type': type }, body }));
      expect(Object.fromEntries(params)).toEqual({
        grant_type: 'password',
        username: 'a@example.com',
        password: 'p w',
      });
    }
  });

  it('reads a base64-encoded form body', () => {
    const body = Buffer.from('grant_type=client_credentials').toString('base64');
    expect(formBody(event({ headers: FORM, body, isBase64Encoded: true })).get('grant_type')).toBe(
      'client_credentials',
    );
  });

  it('reads an empty body as no parameters', () => {
    expect(formBody(event({ headers: FORM })).size).toBe(0);
  });

  it.each([
    ['JSON', { 'content-type': 'application/json' }],
    ['multipart', { 'content-type': 'multipart/form-data; boundary=x' }],
    ['no content type', {}],
  ])('refuses a %s body', (_name, headers) => {
    const error = thrown(() => formBody(event({ headers, body: 'a=1' })));
    expect(error).toMatchObject({
      kind: 'validation',
      message: 'The body must be application/x-www-form-urlencoded.',
    });
  });

  it('refuses a repeated parameter', () => {
    const error = thrown(() => formBody(event({ headers: FORM, body: 'code=a&code=b' })));
    expect(error).toMatchObject({
      kind: 'validation',
      field: 'code',
      message: 'Parameter code is repeated.',
    });
  });
});

describe('jsonBody', () => {
  it('reads a JSON object, with a charset and in any case', () => {
    const body = JSON.stringify({ email: 'a@example.com', n: 1 });
    expect(jsonBody(event({ headers: JSON_TYPE, body }))).toEqual({ email: 'a@example.com', n: 1 });
    expect(jsonBody(event({ headers: { 'Content-Type': 'Application/JSON; charset=utf-8' }, body }))).toEqual(
      {
        email: 'a@example.com',
        n: 1,
      },
    );
  });

  it('reads a base64-encoded JSON body', () => {
    const body = Buffer.from('{"name":"Zoë"}').toString('base64');
    expect(jsonBody(event({ headers: JSON_TYPE, body, isBase64Encoded: true }))).toEqual({ name: 'Zoë' });
  });

  it.each([
    ['form', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['text', { 'content-type': 'text/plain' }],
    ['JSON-like', { 'content-type': 'application/json-patch+json' }],
    ['untyped', {}],
  ])('refuses a %s body', (_name, headers) => {
    const error = thrown(() => jsonBody(event({ headers, body: '{}' })));
    expect(error).toMatchObject({ kind: 'validation', message: 'The body must be application/json.' });
  });

  it.each(['{', '{"a":1,}', "{'a':1}", 'undefined'])('refuses bad JSON %j', (body) => {
    const error = thrown(() => jsonBody(event({ headers: JSON_TYPE, body })));
    expect(error).toMatchObject({ kind: 'validation', message: 'The body is not valid JSON.' });
  });

  it.each(['[1,2]', 'null', '"text"', '42', ''])('refuses %j, which is not an object', (body) => {
    const error = thrown(() => jsonBody(event({ headers: JSON_TYPE, body })));
    expect(error).toMatchObject({ kind: 'validation', message: 'The body must be a JSON object.' });
  });
});

describe('cookies', () => {
  it('reads the payload 2.0 cookies list', () => {
    const jar = cookies(event({ cookies: ['sid=abc', 'theme=dark'] }));
    expect(Object.fromEntries(jar)).toEqual({ sid: 'abc', theme: 'dark' });
  });

  it('falls back to the Cookie header, in any case', () => {
    const jar = cookies(event({ headers: { Cookie: 'sid=abc; theme=dark' } }));
    expect(Object.fromEntries(jar)).toEqual({ sid: 'abc', theme: 'dark' });
  });

  it('prefers the cookies list to the header', () => {
    const jar = cookies(event({ cookies: ['sid=list'], headers: { cookie: 'sid=header' } }));
    expect(jar.get('sid')).toBe('list');
  });

  it('keeps the first of two cookies of one name, and "=" inside a value', () => {
    const jar = cookies(event({ cookies: ['sid=first', 'sid=second', 'tok=a=b='] }));
    expect(jar.get('sid')).toBe('first');
    expect(jar.get('tok')).toBe('a=b=');
  });

  it('skips a nameless pair in the Cookie header, whatever the spaces around it', () => {
    const jar = cookies(event({ headers: { cookie: 'a=1; =x;  =y' } }));
    expect(Object.fromEntries(jar)).toEqual({ a: '1' });
  });

  it('skips pairs without a name or without "="', () => {
    expect(Object.fromEntries(cookies(event({ cookies: ['novalue', '=anonymous', 'ok=1'] })))).toEqual({
      ok: '1',
    });
    expect(Object.fromEntries(cookies(event({ headers: { cookie: 'novalue;ok=1' } })))).toEqual({ ok: '1' });
  });

  it('answers an empty map without cookies', () => {
    expect(cookies(event()).size).toBe(0);
  });
});

describe('pathParam', () => {
  it('returns the path parameter, or refuses its absence naming it', () => {
    expect(pathParam(event({ pathParameters: { id: '7' } }), 'id')).toBe('7');
    const error = thrown(() => pathParam(event(), 'id'));
    expect(error).toMatchObject({ kind: 'validation', field: 'id', message: 'Missing path parameter id.' });
  });
});

describe('requestOrigin', () => {
  const context = (domainName: string) => ({ domainName }) as HttpEvent['requestContext'];

  it('uses the forwarded host and protocol first', () => {
    const e = event({
      headers: { 'X-Forwarded-Host': 'idm.example', 'X-Forwarded-Proto': 'http', host: 'internal:3000' },
    });
    expect(requestOrigin(e)).toBe('http://idm.example');
  });

  it('assumes https for a public host', () => {
    expect(requestOrigin(event({ headers: { host: 'idm.example' } }))).toBe('https://idm.example');
  });

  it('assumes http for localhost and 127.x', () => {
    expect(requestOrigin(event({ headers: { host: 'localhost:3000' } }))).toBe('http://localhost:3000');
    expect(requestOrigin(event({ headers: { host: '127.0.0.1:3000' } }))).toBe('http://127.0.0.1:3000');
  });

  it("falls back to API Gateway's domain name, then to localhost", () => {
    const e = event({ requestContext: context('abc123.execute-api.eu-west-1.amazonaws.com') });
    expect(requestOrigin(e)).toBe('https://abc123.execute-api.eu-west-1.amazonaws.com');
    expect(requestOrigin(event())).toBe('http://localhost');
  });
});
