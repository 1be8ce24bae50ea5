import { afterAll, beforeAll } from 'vitest';
import { startLocalServices, type LocalServices } from './harness.ts';
import { made } from './made.ts';

export type LocalServicesRig = Pick<LocalServices, 'discord' | 'sandbox' | 'token'>;

/** startLocalServices for the tests of one file or describe block: started before them, closed after. */
export function useLocalServices(): LocalServicesRig {
  let services: LocalServices | undefined;
  beforeAll(async () => {
    services = await startLocalServices();
  });
  afterAll(async () => {
    await services?.close();
  });
  return made<LocalServicesRig>({
    discord: () => services?.discord,
    sandbox: () => services?.sandbox,
    token: () => services?.token,
  });
}
