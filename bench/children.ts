/** Child processes the benchmark starts: tracked so that every one is stopped when it ends. */
import { type ChildProcess, spawn } from 'node:child_process';
import { stopChild } from '../local/emulators.js';

export { stopChild };

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

export async function stopAllChildren(): Promise<void> {
  await Promise.all([...children].map(stopChild));
}
