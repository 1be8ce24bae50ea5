// A process whose only work is to start the sender thread (its stats asked for and answered) and nothing after:
// test/core/voice/sender/sender-thread.test.ts expects it to end by itself, the thread unref'd. The interval stands
// for the process's own work (a bot's sockets) while it waits: the unref'd thread alone keeps nothing alive.
import { SenderThread } from '../../src/core/voice/sender/sender-thread.ts';

const work = setInterval(() => undefined, 1000);
const stats = await new SenderThread().stats();
clearInterval(work);
console.log(`answered by thread ${stats.threadId}`);
