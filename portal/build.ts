/**
 * Builds the portal into portal/dist: the static files S3 and CloudFront serve in AWS and
 * `npm start` serves locally. Scripts are bundled and minified by esbuild; no CDN is used.
 */
import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = dirname(fileURLToPath(import.meta.url));

export async function buildPortal(outDir = join(root, 'dist')): Promise<void> {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  await build({
    entryPoints: [join(root, 'src', 'main.ts')],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2020',
    outfile: join(outDir, 'app.js'),
    logLevel: 'warning',
  });
  for (const name of await readdir(join(root, 'public'))) {
    await copyFile(join(root, 'public', name), join(outDir, name));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildPortal();
  console.log('portal built into portal/dist');
}
