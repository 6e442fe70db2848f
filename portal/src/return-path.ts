/**
 * Where to go after signing in. Only a same-origin path is followed: it must start with "/" but
 * not "//" or "/\" (browsers read both as a scheme-relative URL to another host), so a crafted
 * `?return=` link cannot send a person to another site (an open redirect).
 */
export function safeReturn(value: string | null | undefined): string {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  // Control characters and backslashes anywhere are not part of any path this service serves.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return '/';
  return value;
}
