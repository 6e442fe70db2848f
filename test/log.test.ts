import { afterEach, describe, expect, it, vi } from 'vitest';
import { logger } from '../shared/log.js';

/** The JSON lines the logger writes while `fn` runs. */
function captured(fn: () => void): Record<string, unknown>[] {
  const lines: string[] = [];
  const keep = (chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  };
  // INFO goes to stdout, WARN and ERROR to stderr.
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

  it('names the trace Lambda gives the invocation, and the error’s cause', () => {
    vi.stubEnv(
      '_X_AMZN_TRACE_ID',
      'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1',
    );
    const [line] = captured(() =>
      logger.error('store failed', { error: new Error('outer', { cause: new Error('inner') }) }),
    );
    vi.unstubAllEnvs();
    expect(line).toMatchObject({
      level: 'ERROR',
      message: 'store failed',
      service: 'gatehouse',
      xray_trace_id: '1-5759e988-bd862e3fe1be46a994272793',
      error: { name: 'Error', message: 'outer', cause: { name: 'Error', message: 'inner' } },
    });
    expect(Date.parse(line!.timestamp as string)).not.toBeNaN();
  });

  it('still writes a line when the fields cannot be serialised', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const [line] = captured(() => logger.warn('odd input', { cycle }));
    expect(line).toMatchObject({ level: 'WARN', message: 'odd input' });
  });
});

describe('log level', () => {
  it('writes nothing below IDM_LOG_LEVEL, and nothing at all when SILENT', async () => {
    const fresh = async (level: string) => {
      vi.stubEnv('IDM_LOG_LEVEL', level);
      vi.resetModules();
      const module = await import('../shared/log.js');
      vi.unstubAllEnvs();
      return module.logger;
    };
    const warnOnly = await fresh('WARN');
    expect(captured(() => warnOnly.info('hidden'))).toEqual([]);
    expect(captured(() => warnOnly.error('shown'))).toMatchObject([{ level: 'ERROR', message: 'shown' }]);
    const silent = await fresh('SILENT');
    expect(captured(() => silent.error('hidden'))).toEqual([]);
    const debug = await fresh('debug');
    expect(captured(() => debug.debug('shown'))).toMatchObject([{ level: 'DEBUG', message: 'shown' }]);
  });
});
