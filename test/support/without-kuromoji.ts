// Loaded with `node --import`: this process (and its worker threads) sees no `kuromoji` package, as after an install
// that leaves it out.
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, next) {
    if (specifier === 'kuromoji' || specifier.startsWith('kuromoji/')) {
      const error = new Error(`Cannot find module '${specifier}'`);
      Object.assign(error, { code: 'MODULE_NOT_FOUND' });
      throw error;
    }
    return next(specifier, context);
  },
});
