/**
 * GET /version as Keyrock 8 answers it (its version.json, filled in by app.js): the Keyrock
 * release whose API this service speaks, when it was released, how long this process has been
 * up (Keyrock's `HH:MM:SS.d`, hours modulo 24 as Keyrock counts them), documentation, and the
 * API's version and base link.
 */
export const KEYROCK_API = { version: '8.3.0', releaseDate: '2022-09-15' } as const;

/** Keyrock's lib/time.js format: `HH:MM:SS.d`, hours modulo a day. */
export function uptime(ms: number): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const tenths = Math.floor((ms % 1000) / 100);
  const seconds = Math.floor(ms / 1000) % 60;
  const minutes = Math.floor(ms / 60_000) % 60;
  const hours = Math.floor(ms / 3_600_000) % 24;
  return `${pad(hours)}:${pad(minutes)}:${pad(seconds)}.${tenths}`;
}

export function versionBody(input: { baseUrl: string; uptimeMs: number; documentationUrl: string }) {
  return {
    keyrock: {
      version: KEYROCK_API.version,
      release_date: KEYROCK_API.releaseDate,
      uptime: uptime(input.uptimeMs),
      doc: input.documentationUrl,
      api: { version: 'v1', link: `${input.baseUrl}/v1` },
    },
  };
}
