import { afterEach, describe, expect, it, vi } from 'vitest';
import { logger } from '../shared/log.js';

/** The JSON lines the logger writes while `fn` runs. */
function captured(fn: () => void): Record<string, unknown>[] {
  const lines: string[] = [];
  const keep = (chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  };
  // Powertools writes INFO to stdout and WARN/ERROR to stderr.
  const spies = [
    vi.spyOn(process.stdout, 'write').mockImplementation(keep),
    vi.spyOn(process.stderr, 'write').mockImplementation(keep),
  ];
  try {
    fn();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return lines
    .join('')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

afterEach(() => vi.restoreAllMocks());

describe('logger redaction', () => {
  it('redacts passwords, tokens, codes, client secrets and session ids wherever they appear', () => {
    const [line] = captured(() =>
      logger.info('sign-in', {
        email: 'a@example.com',
        password: 'hunter2hunter2',
        request: {
          headers: { authorization: 'Bearer abc.def', cookie: 'idm_session=s3cr3t', 'user-agent': 'curl' },
          body: {
            client_secret: 'cs-123',
            code: 'code-456',
            refresh_token: 'rt-789',
            grant_type: 'password',
          },
        },
        sessionId: 'sess-1',
      }),
    );
    expect(line).toMatchObject({
      level: 'INFO',
      message: 'sign-in',
      email: 'a@example.com',
      password: '[redacted]',
      sessionId: '[redacted]',
      request: {
        headers: { authorization: '[redacted]', cookie: '[redacted]', 'user-agent': 'curl' },
        body: {
          client_secret: '[redacted]',
          code: '[redacted]',
          refresh_token: '[redacted]',
          grant_type: 'password',
        },
      },
    });
    const text = JSON.stringify(line);
    for (const secret of ['hunter2hunter2', 'abc.def', 's3cr3t', 'cs-123', 'code-456', 'rt-789', 'sess-1']) {
      expect(text).not.toContain(secret);
    }
  });

  it('keeps an error with its stack and still redacts its context', () => {
    const [line] = captured(() =>
      logger.error('unexpected', { error: new Error('boom'), accessToken: 'tok-1', route: 'GET /user' }),
    );
    expect(line).toMatchObject({ level: 'ERROR', accessToken: '[redacted]', route: 'GET /user' });
    expect(JSON.stringify(line)).toContain('boom');
    expect(JSON.stringify(line)).toMatch(/stack/);
    expect(JSON.stringify(line)).not.toContain('tok-1');
  });
});
