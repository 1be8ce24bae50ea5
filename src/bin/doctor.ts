// `npm run doctor`: checks the set-up and says in plain words what is wrong. Exit code 1 when a check fails.
import { loadDotenv } from '../core/dotenv.ts';
import { formatResults, runChecks } from '../app/doctor/checks.ts';

loadDotenv();
const results = await runChecks(process.env);
console.log(formatResults(results));
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
