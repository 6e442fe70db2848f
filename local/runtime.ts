import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Names and ports of a local run; one definition for `npm start`, the CLI and the bench. */
export const LOCAL = {
  table: 'gatehouse',
  logoBucket: 'gatehouse-logos',
  region: 'us-east-1',
};

export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.DATA_DIR ?? '.data');
}

export interface RuntimeInfo {
  pid: number;
  url: string;
  dynamodbEndpoint: string;
  s3Endpoint: string;
  table: string;
  logoBucket: string;
}

const file = (dir: string) => join(dir, 'runtime.json');

/** `npm start` records where its emulators listen, so `npx idm` can use the same data. */
export function writeRuntime(dir: string, info: RuntimeInfo): void {
  writeFileSync(file(dir), `${JSON.stringify(info, null, 2)}\n`);
}

export function clearRuntime(dir: string): void {
  rmSync(file(dir), { force: true });
}

/** The running `npm start` for this data folder, if its process is still alive. */
export function readRuntime(dir: string): RuntimeInfo | undefined {
  if (!existsSync(file(dir))) return undefined;
  try {
    const info = JSON.parse(readFileSync(file(dir), 'utf8')) as RuntimeInfo;
    process.kill(info.pid, 0);
    return info;
  } catch {
    return undefined;
  }
}

/** The environment the handlers read (shared/config.ts) for a local run. */
export function localEnv(info: Omit<RuntimeInfo, 'pid' | 'url'> & { url?: string }): Record<string, string> {
  return {
    IDM_TABLE_NAME: info.table,
    IDM_LOGO_BUCKET: info.logoBucket,
    IDM_DYNAMODB_ENDPOINT: info.dynamodbEndpoint,
    IDM_S3_ENDPOINT: info.s3Endpoint,
    AWS_REGION: LOCAL.region,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_EC2_METADATA_DISABLED: 'true',
    ...(info.url ? { IDM_PUBLIC_URL: info.url } : {}),
  };
}
