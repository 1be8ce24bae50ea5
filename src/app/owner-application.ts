// What SayBot reads of its own application at start-up: whether it is a Public Bot, and who owns it.
import { Team, type Client } from 'discord.js';
import type { Logger } from '../core/log.ts';

/** The two ways to keep strangers from adding SayBot, as the warning and `npm run doctor` name them. */
export const PUBLIC_BOT_FIXES =
  'switch Public Bot off in the Discord Developer Portal (Applications > this bot > Bot > Public Bot), ' +
  'or set ALLOWED_GUILDS to the servers SayBot may serve';

/** Why a public application with no ALLOWED_GUILDS is a problem: every server added spends the owner's month. */
export function publicBotProblem(
  botPublic: boolean | null | undefined,
  allowedGuildsListed: boolean,
): string | undefined {
  if (botPublic !== true || allowedGuildsListed) return undefined;
  return `the application is a Public Bot and ALLOWED_GUILDS is not set: anyone can add SayBot to their server and spend your characters. To fix it, ${PUBLIC_BOT_FIXES}`;
}

export class OwnerApplication {
  /** The application's owner, or its team's members: the operator. Empty until read (or when it could not be). */
  #operators: ReadonlySet<string> = new Set();
  /** OWNER_IDS: owners whatever Discord says. */
  readonly #named: ReadonlySet<string>;

  constructor(ownerIds: readonly string[] = []) {
    this.#named = new Set(ownerIds);
  }

  /** Whether this user owns the application (or is on its team) or OWNER_IDS names them. */
  isOperator(userId: string): boolean {
    return this.#named.has(userId) || this.#operators.has(userId);
  }

  /** Public Bot as Discord says it now (GET /applications/@me); undefined when it could not be read. */
  async publicBot(client: Client): Promise<boolean | undefined> {
    const application = client.application;
    if (application === null) return undefined;
    try {
      return (await application.fetch()).botPublic ?? undefined;
    } catch {
      return undefined;
    }
  }

  /** Reads the application once logged in; a failure is one line and SayBot runs all the same. */
  async read(client: Client, allowedGuildsListed: boolean, logger: Logger): Promise<void> {
    const application = client.application;
    if (application === null) return;
    try {
      await application.fetch();
    } catch (error) {
      logger.warn(
        { code: 'application-unread', err: error },
        'could not read the application (GET /applications/@me): Public Bot not checked',
      );
      return;
    }
    const owner = application.owner;
    this.#operators = new Set(
      owner instanceof Team ? owner.members.map((member) => member.id) : owner === null ? [] : [owner.id],
    );
    const problem = publicBotProblem(application.botPublic, allowedGuildsListed);
    if (problem !== undefined) logger.warn({ code: 'public-bot', fixes: PUBLIC_BOT_FIXES }, `SayBot: ${problem}`);
  }
}
