/**
 * The answer check for section 4's load runs. autocannon counts every 4xx and 5xx alike as
 * "non-2xx" and records their latencies with the rest, so a run whose requests failed fast would
 * publish a flattering rate: here every answer is checked as it arrives (status and body shape),
 * the run is stopped at the first wrong one, and the status counts autocannon reports are
 * checked against the one status the workload expects (a 4xx workload names its 4xx).
 */
import { type Expectation, named, problemWith, WrongAnswer } from './answers.js';

/** The part of autocannon's result the check reads (its `statusCodeStats` is not in our types). */
export interface LoadOutcome {
  statusCodeStats?: Record<string, { count: number }>;
  errors: number;
  timeouts: number;
}

export class LoadCheck {
  answers = 0;
  wrong = 0;
  private first: string | undefined;
  /** Set by the runner: stops the load at the first wrong answer. */
  stop: () => void = () => undefined;

  constructor(
    private readonly label: string,
    private readonly request: { method: string; url: string },
    readonly expectation: Expectation,
    /** Anything that explains a wrong answer, e.g. that the pre-issued codes ran out. */
    private readonly note: () => string | undefined = () => undefined,
  ) {}

  /** autocannon's per-request `onResponse` hook: every answer, status and shape. */
  readonly onResponse = (
    status: number,
    body: string,
    _context: unknown,
    headers?: Record<string, string>,
  ) => {
    this.answers++;
    const wrong = problemWith(this.expectation, {
      status,
      body: String(body ?? ''),
      headers: lowerCase(headers ?? {}),
    });
    if (!wrong) return;
    this.wrong++;
    if (this.first === undefined) {
      this.first = wrong;
      this.stop();
    }
  };

  /** Throws WrongAnswer unless every answer of the run was the expected one. */
  verify(connections: number, outcome: LoadOutcome): void {
    const where = `local runtime at ${connections} connection${connections === 1 ? '' : 's'}`;
    const fail = (why: string) => {
      const note = this.note();
      throw new WrongAnswer(
        `${where}: ${named(this.label, this.request)}: ${why}${note ? ` (${note})` : ''}`,
      );
    };
    if (this.first !== undefined) fail(`${this.first} [${this.wrong} of ${this.answers} answers wrong]`);
    const stats = Object.entries(outcome.statusCodeStats ?? {}).filter(([, s]) => s.count > 0);
    const others = stats.filter(([code]) => Number(code) !== this.expectation.status);
    if (others.length > 0) {
      const counts = others.map(([code, s]) => `${s.count} × ${code}`).join(', ');
      fail(`expected ${this.expectation.status} only, autocannon counted ${counts}`);
    }
    if (outcome.errors > 0) {
      fail(`${outcome.errors} requests got no answer (${outcome.timeouts} timed out)`);
    }
    if (this.answers === 0) fail('no request was answered');
  }
}

function lowerCase(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}
