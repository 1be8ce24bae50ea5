// What comes back may quote the request (a validation message, a proxy's error page): a member's words, which the
// log never holds, so they are taken out before it is kept.

/** Words shorter than this are left: common words say nothing of a member's message, and taking them out would. */
const MIN_WORD = 4;

/** Stands where the request's words were. */
export const ECHO = '…';

/** `message` without any word of `said` of MIN_WORD code points or more, nor any of them whole (unspaced scripts), bar
 * words of `voice` (the voice it was said in, SayBot's choice): the voice ID the service names stays whole. */
export function withoutEchoes(message: string, said: readonly string[], voice = ''): string {
  const words = new Set<string>();
  const echoed = (word: string) => [...word].length >= MIN_WORD && !voice.includes(word);
  for (const whole of said) {
    const trimmed = whole.trim();
    if (echoed(trimmed)) words.add(trimmed);
    for (const word of trimmed.split(/[\s\p{P}\p{S}]+/u)) if (echoed(word)) words.add(word);
  }
  let out = message;
  // Longest first: a whole text goes as one, not as the words left around a shorter one taken out of it.
  for (const word of [...words].sort((a, b) => b.length - a.length))
    if (out.includes(word)) out = out.split(word).join(ECHO);
  return out;
}

/** A run of a secret this long is the secret's wherever it stands (a service quoting the key's end). */
const MIN_SECRET_RUN = 8;

/** Stands where a part of a secret was. */
export const REDACTED = '[redacted]';

/** `message` without any run of MIN_SECRET_RUN characters or more that is also in `secret`. */
export function withoutSecretRuns(message: string, secret: string): string {
  if (secret.length < MIN_SECRET_RUN) return message;
  const runs = new Set<string>();
  for (let i = 0; i + MIN_SECRET_RUN <= secret.length; i++) runs.add(secret.slice(i, i + MIN_SECRET_RUN));
  const taken = new Array<boolean>(message.length).fill(false);
  for (let i = 0; i + MIN_SECRET_RUN <= message.length; i++)
    if (runs.has(message.slice(i, i + MIN_SECRET_RUN))) taken.fill(true, i, i + MIN_SECRET_RUN);
  let out = '';
  for (let i = 0; i < message.length; i++) {
    if (!taken[i]) out += message[i];
    else if (i === 0 || !taken[i - 1]) out += REDACTED;
  }
  return out;
}
