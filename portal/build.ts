/**
 * Builds the portal into portal/dist: the static files S3 and CloudFront serve in AWS and
 * `npm start` serves locally. Scripts (Preact + htm + Cropper.js) are bundled and minified by
 * esbuild, Cropper.js's stylesheet is bundled into app.css; no CDN is used.
 */
import { copyFile, mkdir, readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = dirname(fileURLToPath(import.meta.url));

/** The budget the portal issue sets for all shipped JavaScript, gzipped. */
export const JS_BUDGET_BYTES = 100 * 1024;

export async function buildPortal(outDir = join(root, 'dist')): Promise<void> {
  // Files are overwritten in place, not removed first: a server running from this folder (a test
  // file, `npm start`) never sees it empty.
  await mkdir(outDir, { recursive: true });
  await build({
    entryPoints: [join(root, 'src', 'main.ts')],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2020',
    outfile: join(outDir, 'app.js'),
    logLevel: 'warning',
    legalComments: 'none',
  });
  for (const name of await readdir(join(root, 'public'))) {
    await copyFile(join(root, 'public', name), join(outDir, name));
  }
}

/** Total size of the shipped JavaScript, raw and gzipped (level 9, as CloudFront roughly serves it). */
export async function measurePortal(outDir = join(root, 'dist')): Promise<{ raw: number; gzip: number }> {
  let raw = 0;
  let gzip = 0;
  for (const name of await readdir(outDir)) {
    if (!name.endsWith('.js')) continue;
    const bytes = await readFile(join(outDir, name));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { raw, gzip };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildPortal();
  const size = await measurePortal();
  console.log(
    `portal built into portal/dist: JavaScript ${(size.raw / 1024).toFixed(1)} KB, ` +
      `${(size.gzip / 1024).toFixed(1)} KB gzipped (budget ${JS_BUDGET_BYTES / 1024} KB)`,
  );
}
