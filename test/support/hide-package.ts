// For a hook loaded with `node --import`: this process and its worker threads see no package `name`, as after an
// install that leaves it out (./without-espeak.ts, ./without-kuromoji.ts).
import { registerHooks } from 'node:module';

export function hidePackage(name: string): void {
  registerHooks({
    resolve(specifier, context, next) {
      if (specifier === name || specifier.startsWith(`${name}/`)) {
        const error = new Error(`Cannot find package '${specifier}'`);
        Object.assign(error, { code: 'ERR_MODULE_NOT_FOUND' });
        throw error;
      }
      return next(specifier, context);
    },
  });
}
