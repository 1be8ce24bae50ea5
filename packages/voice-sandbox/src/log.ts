// What the sandbox logs through: one structured line a request. pino's loggers (SayBot's, the CLI's) fit it as they
// are; the sandbox never names a key in a line, only its hint.
export interface SandboxLogger {
  info(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** Logs nothing: the default, for tests. */
export const silentLogger: SandboxLogger = { info: () => {}, error: () => {} };
