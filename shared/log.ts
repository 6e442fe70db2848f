import { Logger } from '@aws-lambda-powertools/logger';

/**
 * Keys whose values never reach a log line. The logger's JSON replacer applies this to every
 * record, so call sites cannot forget it (a password in an error's context, a token in a header).
 */
const SECRET_KEY =
  /pass(word)?|secret|token|^code$|code_verifier|authorization|cookie|session|csrf|credential|hash/i;

export function redact(key: string, value: unknown): unknown {
  if (key !== '' && SECRET_KEY.test(key) && value !== undefined && value !== null && value !== '') {
    return '[redacted]';
  }
  return value;
}

export const logger = new Logger({
  serviceName: 'gatehouse',
  logLevel:
    (process.env.IDM_LOG_LEVEL as 'INFO' | 'DEBUG' | 'WARN' | 'ERROR' | 'SILENT' | undefined) ?? 'INFO',
  jsonReplacerFn: redact,
});
