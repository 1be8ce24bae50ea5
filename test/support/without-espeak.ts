// Loaded with `node --import`: this process sees no `espeak-ng` package, as after `npm ci --omit=optional`.
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, next) {
    if (specifier === 'espeak-ng' || specifier.startsWith('espeak-ng/')) {
      const error = new Error(`Cannot find package '${specifier}'`);
      Object.assign(error, { code: 'ERR_MODULE_NOT_FOUND' });
      throw error;
    }
    return next(specifier, context);
  },
});
