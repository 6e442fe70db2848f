/**
 * The order of `npm run bench`: every section measures, then the cost is priced and the report
 * rendered, and only then is it written. Each section throws WrongAnswer at the first measured
 * answer that is not the one its scenario names (bench/answers.ts), so a run that measured an
 * error path ends before `write` and leaves docs/benchmarks.md as it was.
 */
import type { ColdStartResult } from './cold-start.js';
import { costPerMillion } from './cost.js';
import type { InProcessResult } from './in-process.js';
import type { Machine } from './machine.js';
import { renderReport, type Verdict, verdicts } from './report.js';
import type { RuntimeResult } from './runtime.js';

export interface Sections {
  coldStart(): Promise<ColdStartResult>;
  inProcess(): Promise<InProcessResult>;
  runtime(): Promise<RuntimeResult>;
}

export interface Publish {
  host: Machine;
  quick: boolean;
  /** performance.now() when the run started, for the run time the report states. */
  started: number;
  /** Receives the finished report and the budgets it misses; never called after a wrong answer. */
  write(report: string, missed: Verdict[]): void;
}

export async function measureThenWrite(sections: Sections, publish: Publish): Promise<void> {
  const cold = await sections.coldStart();
  const inProcess = await sections.inProcess();
  const runtime = await sections.runtime();
  const cost = await costPerMillion(cold, inProcess);
  const report = renderReport({
    host: publish.host,
    cold,
    inProcess,
    runtime,
    cost,
    quick: publish.quick,
    seconds: (performance.now() - publish.started) / 1000,
  });
  publish.write(
    report,
    verdicts({ cold, inProcess, runtime }).filter((v) => !v.ok),
  );
}
