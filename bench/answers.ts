/**
 * What a measured request must answer, and the check that stops the benchmark when it does not.
 * A figure taken while a handler answered 500 (or 401, or an empty body) measures the error path,
 * not the request it is labelled with, so the first wrong answer ends the run with a one-line
 * reason and no report is written.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { BenchRequest } from './invoke.js';

/** One answer as the checks see it, whichever way it arrived (in process or over HTTP). */
export interface Answer {
  status: number;
  body: string;
  headers: Record<string, string | undefined>;
}

/** Returns what is wrong with an answer's body or headers, or undefined when it is right. */
export type Shape = (answer: Answer) => string | undefined;

export interface Expectation {
  status: number;
  shape?: Shape;
}

/** The benchmark measured something other than what it names; the message is the whole reason. */
export class WrongAnswer extends Error {
  override name = 'WrongAnswer';
}

/** The request on one line, with credentials left out (they are long and secret). */
export function describeRequest(request: Pick<BenchRequest, 'method' | 'url'>): string {
  const [path, query] = request.url.split('?');
  if (!query) return `${request.method} ${path}`;
  const secret = /^(access_token|code|refresh_token|password)$/;
  const params = query
    .split('&')
    .map((pair) => {
      const name = pair.split('=')[0] ?? '';
      return secret.test(name) ? `${name}=…` : pair;
    })
    .join('&');
  return `${request.method} ${path}?${params}`;
}

/** The scenario's label, and the request sent when the label does not already say it. */
export function named(scenario: string, request: Pick<BenchRequest, 'method' | 'url'>): string {
  const sent = describeRequest(request);
  return sent === scenario ? scenario : `${scenario} (${sent})`;
}

/** The start of a body, on one line. */
export function bodyStart(body: string, length = 160): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  return flat.length > length ? `${flat.slice(0, length)}…` : flat || '(empty)';
}

/** What is wrong with an answer, or undefined when it is what the scenario expects. */
export function problemWith(expectation: Expectation, answer: Answer): string | undefined {
  if (answer.status !== expectation.status) {
    return `expected ${expectation.status}, got ${answer.status}: ${bodyStart(answer.body)}`;
  }
  const wrong = expectation.shape?.(answer);
  return wrong ? `status ${answer.status} as expected, but ${wrong}: ${bodyStart(answer.body)}` : undefined;
}

/**
 * Throws WrongAnswer unless the answer is what the scenario expects. `where` names the part of
 * the benchmark (e.g. "code cost, canned store"), `scenario` the scenario's label.
 */
export function checkAnswer(
  where: string,
  scenario: string,
  request: Pick<BenchRequest, 'method' | 'url'>,
  expectation: Expectation,
  answer: Answer,
): void {
  const wrong = problemWith(expectation, answer);
  if (wrong) throw new WrongAnswer(`${where}: ${named(scenario, request)}: ${wrong}`);
}

/** A handler's result as an Answer (API Gateway's payload 2.0 result). */
export function answerOf(result: {
  statusCode: number;
  body?: string | undefined;
  headers?: Record<string, string> | undefined;
}): Answer {
  return { status: result.statusCode, body: result.body ?? '', headers: result.headers ?? {} };
}

/**
 * A benchmark child process that meets a wrong answer hands its one-line reason to the parent
 * through its result file (its stderr also carries the handlers' logs), and exits 1.
 */
export function failChild(error: unknown, resultFile: string | undefined): never {
  if (error instanceof WrongAnswer) {
    if (resultFile) writeFileSync(resultFile, JSON.stringify({ wrongAnswer: error.message }));
    process.stderr.write(`wrong answer: ${error.message}\n`);
  } else {
    console.error(error);
  }
  process.exit(1);
}

/** The child's failure as the parent sees it: its WrongAnswer when it left one, else `error`. */
export function childFailure(error: unknown, resultFile: string): Error {
  try {
    const left = JSON.parse(readFileSync(resultFile, 'utf8')) as { wrongAnswer?: string };
    if (left.wrongAnswer) return new WrongAnswer(left.wrongAnswer);
  } catch {
    // No result file, or not one a wrong answer wrote: the child failed otherwise.
  }
  return error instanceof Error ? error : new Error(String(error));
}
