// One line of `npm run doctor` (and of the owner console's checks).
export interface CheckResult {
  name: string;
  ok: boolean;
  /** What was found, or what is wrong and what to do, in plain words. */
  detail: string;
  /** A warning: works, but could be better. */
  warn?: boolean;
}
