/** Where and when the figures were taken: printed at the top of docs/benchmarks.md. */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';

export interface Machine {
  date: string;
  cores: number;
  cpu: string;
  memoryGiB: number;
  node: string;
  commit: string;
  dirty: boolean;
  java: string;
  /** Load average (1, 5, 15 min) when the run started: how busy the shared machine was. */
  load: string;
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

function javaVersion(): string {
  try {
    // java -version prints to stderr.
    const out = execFileSync('sh', ['-c', 'java -version 2>&1'], { encoding: 'utf8' });
    return out.split('\n')[0]?.trim() ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export function machine(): Machine {
  return {
    date: new Date().toISOString(),
    cores: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    commit: git(['rev-parse', '--short', 'HEAD']) || 'unknown',
    dirty: git(['status', '--porcelain', '--untracked-files=no']) !== '',
    java: javaVersion(),
    load: loadavg()
      .map((l) => l.toFixed(1))
      .join(' / '),
  };
}
