// Whether SayBot, the playground's child process, still runs. Noticed from the child's exit (a crash, a kill -9):
// one line in the terminal (its exit code or signal, and its last error line if any), the page's banner, and the
// refusal of every new action. When the playground itself stops SayBot (Ctrl-C), nothing is said.
import type { BotProcess } from '@saybot/local-discord';
import { whyStopped } from './local-stack.ts';

/** How long after the exit the last of its output may still arrive before the line is printed without it. */
const OUTPUT_GRACE_MS = 2000;

export interface SaybotStatus {
  /** Why SayBot stopped ("SayBot stopped (signal SIGKILL): …"), or undefined while it runs. */
  stopped(): string | undefined;
}

export interface SaybotWatch extends SaybotStatus {
  /** The playground is stopping SayBot itself: its exit is no news. */
  quiet(): void;
}

export function watchSaybot(bot: BotProcess, log: (line: string) => void): SaybotWatch {
  let quiet = false;
  let stopped: string | undefined;
  let told = false;
  const describe = (code: number | null, signal: NodeJS.Signals | null): string => {
    const why = whyStopped(bot.output());
    const how = signal !== null ? `signal ${signal}` : `exit code ${String(code)}`;
    return `SayBot stopped (${how})${why === undefined ? '' : `: ${why}`}`;
  };
  const tell = (): void => {
    if (told || quiet || stopped === undefined) return;
    told = true;
    log(`${stopped}. The page refuses new actions: restart the playground.`);
  };
  bot.child.once('exit', (code, signal) => {
    stopped = describe(code, signal);
    setTimeout(tell, OUTPUT_GRACE_MS).unref();
  });
  // Its output is all read once its pipes close: the reason then includes its last words.
  bot.child.once('close', (code: number | null, signal: NodeJS.Signals | null) => {
    stopped = describe(code, signal);
    tell();
  });
  return {
    stopped: () => stopped,
    quiet() {
      quiet = true;
    },
  };
}
