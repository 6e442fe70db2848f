/**
 * One JSON line per record, on stdout (INFO, DEBUG) or stderr (WARN, ERROR), which Lambda sends
 * to CloudWatch as written and `npm start` prints. Written here rather than taken from
 * @aws-lambda-powertools/logger, which Gatehouse used before: measured on the benchmark machine
 * that package added 3.2 ms to every function's cold start (7% over the SDK floor, bench/
 * reference.ts) and 2–3% of each request's CPU, for the four fields below; Gatehouse uses none of
 * its other features (sampling, persistent keys, Lambda context injection).
 *
 * Fields: `level`, `message`, `timestamp` (ISO 8601), `service`, `xray_trace_id` when Lambda
 * traces the invocation, then the caller's. An `Error` anywhere in them becomes `{name, message,
 * stack}` (with its `cause`). IDM_LOG_LEVEL (DEBUG, INFO, WARN, ERROR, SILENT) sets the least
 * level written; INFO by default.
 */

/**
 * Keys whose values never reach a log line. The JSON replacer applies this to every record, so
 * call sites cannot forget it (a password in an error's context, a token in a header).
 */
const SECRET_KEY =
  /pass(word)?|secret|token|^code$|code_verifier|authorization|cookie|session|csrf|credential|hash/i;

export function redact(key: string, value: unknown): unknown {
  if (key !== '' && SECRET_KEY.test(key) && value !== undefined && value !== null && value !== '') {
    return '[redacted]';
  }
  return value;
}

type Level = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
const RANK: Record<string, number> = { DEBUG: 10, INFO: 20, WARN: 30, ERROR: 40, SILENT: 100 };

const least = RANK[(process.env.IDM_LOG_LEVEL ?? 'INFO').toUpperCase()] ?? RANK.INFO!;

function errorFields(error: Error): Record<string, unknown> {
  return {
    name: error.name,
    message: error.message,
    stack: error.stack,
    ...(error.cause !== undefined ? { cause: error.cause } : {}),
  };
}

function replacer(key: string, value: unknown): unknown {
  const kept = redact(key, value);
  return kept instanceof Error ? errorFields(kept) : kept;
}

/** Lambda's `_X_AMZN_TRACE_ID` is `Root=1-…;Parent=…;Sampled=…`; the root names the trace. */
function traceId(): string | undefined {
  const header = process.env._X_AMZN_TRACE_ID;
  return header ? /Root=([^;]+)/.exec(header)?.[1] : undefined;
}

function write(level: Level, message: string, fields: Record<string, unknown> | undefined): void {
  if (RANK[level]! < least) return;
  const trace = traceId();
  const record = {
    level,
    message,
    timestamp: new Date().toISOString(),
    service: 'gatehouse',
    ...(trace ? { xray_trace_id: trace } : {}),
    ...fields,
  };
  let line: string;
  try {
    line = JSON.stringify(record, replacer);
  } catch {
    // A cycle or a BigInt in the caller's fields: the line still says what happened.
    line = JSON.stringify({ level, message, timestamp: record.timestamp, service: 'gatehouse' });
  }
  (level === 'WARN' || level === 'ERROR' ? process.stderr : process.stdout).write(`${line}\n`);
}

export const logger = {
  debug: (message: string, fields?: Record<string, unknown>) => write('DEBUG', message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write('INFO', message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write('WARN', message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write('ERROR', message, fields),
};
