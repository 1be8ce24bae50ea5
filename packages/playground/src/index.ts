// The playground (packages/playground/README.md): SayBot, the local Discord and the sandbox, and a page onto them.
export { startPlayground, type Playground, type PlaygroundOptions } from './playground.ts';
export { BOUNDS } from './bounds.ts';
export { GUILD_ID, GENERAL, LOUNGE, PEOPLE, READ_ALOUD, type Person } from './world.ts';
export { freePort, PLAYGROUND_LOGINS_PER_MINUTE, saybotEnvironment } from './saybot-env.ts';
export { startLocalStack, whyStopped, type LocalStack, type LocalStackOptions } from './local-stack.ts';
