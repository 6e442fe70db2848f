import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';

/** A mail as maildev's HTTP API (`GET /api/email`) answers it. */
export interface CaughtMail {
  id: string;
  subject: string;
  text: string;
  html: string;
  to: { address: string }[];
  from: { address: string; name: string }[];
}

/** Every mail the run's maildev caught for an address (tests use unique addresses). */
export async function mailsTo(address: string): Promise<CaughtMail[]> {
  const res = await fetch(`${inject('mailWebUrl')}/api/email`);
  if (!res.ok) throw new Error(`maildev answered ${res.status}`);
  const all = (await res.json()) as CaughtMail[];
  return all.filter((m) => m.to.some((t) => t.address.toLowerCase() === address.toLowerCase()));
}

/** Waits (up to 5 s) until an address has `count` mails with this subject; returns the newest. */
export async function waitForMail(address: string, subject: string, count = 1): Promise<CaughtMail> {
  for (let i = 0; i < 50; i++) {
    const found = (await mailsTo(address)).filter((m) => m.subject === subject);
    if (found.length >= count) return found[found.length - 1]!;
    await sleep(100);
  }
  throw new Error(`No mail "${subject}" reached ${address}.`);
}

/** The portal link in a mail's text, and the token in its fragment. */
export function linkIn(mail: CaughtMail): { url: URL; token: string } {
  const match = /https?:\/\/\S+#token=[A-Za-z0-9_%-]+/.exec(mail.text);
  if (!match) throw new Error(`No link in mail "${mail.subject}".`);
  const url = new URL(match[0]);
  return { url, token: decodeURIComponent(url.hash.slice('#token='.length)) };
}
