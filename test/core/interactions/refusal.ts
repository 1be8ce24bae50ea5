import { UserError } from '../../../src/core/interactions/failures.ts';
import { t } from '../../../src/core/i18n/catalogue.ts';

/** The English message a refusal shows, so each case is checked as the user reads it. */
export async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof UserError) return t('en-US', error.userMessage.key, error.userMessage.params);
    throw error;
  }
  throw new Error('expected a refusal');
}
