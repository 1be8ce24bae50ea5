// Loaded with `node --import`: this process (and its worker threads) sees no `kuromoji` package, as after an install
// that leaves it out.
import { hidePackage } from './hide-package.ts';

hidePackage('kuromoji');
