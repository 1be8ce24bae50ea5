// The gate as the core's rights port (src/core/order/rights.ts): the three questions the core's order asks
// (src/core/order/rights-asker.ts), each answered by the gate's reading of an order's effects (gate.ts). The app
// gives it to the pipeline (src/app/start-saybot.ts); no front-end asks the gate an order's questions itself
// (test/structure/one-gate.test.ts).
import type { OrderRights } from '../../core/order/rights.ts';
import { judge, postsPrivately, recheck } from './gate.ts';

export const gatePort: OrderRights = {
  mayAccept: (effects) => judge(effects),
  mayPlay: (effects) => recheck(effects),
  mayPost: (effects) => (postsPrivately(effects) ? 'privately' : 'publicly'),
};
