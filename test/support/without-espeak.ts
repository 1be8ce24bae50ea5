// Loaded with `node --import`: this process sees no `espeak-ng` package, as after `npm ci --omit=optional`.
import { hidePackage } from './hide-package.ts';

hidePackage('espeak-ng');
