/** Child processes the benchmark starts: tracked so that every one is stopped when it ends. */
import { type ChildProcess, spawn } from 'node:child_process';

const children = new Set<ChildProcess>();

/** Starts a TypeScript module in a child Node process (through tsx). */
export function startTs(file: string, env: NodeJS.ProcessEnv): ChildProcess {
  // stdout carries the handlers' JSON log lines: not wanted here; stderr carries progress.
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Runs a TypeScript module to completion; rejects unless it exits 0. */
export function runTs(file: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = startTs(file, env);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${file} exited with ${code ?? signal}`));
    });
  });
}

/** Stops a child and waits for it (SIGKILL after 5 s). */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function stopAllChildren(): Promise<void> {
  await Promise.all([...children].map(stopChild));
}
