import { execFile } from 'node:child_process';

export interface IdmRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `idm` as an operator would (bin/idm.mjs) with this environment; its exit code, never a throw. */
export function runIdm(env: NodeJS.ProcessEnv, args: string[], timeout = 120_000): Promise<IdmRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/idm.mjs', ...args], { env, timeout }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}
