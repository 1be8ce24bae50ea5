// The Docker image checked where no Docker engine is: from the Dockerfile, docker-compose.yml, .dockerignore,
// package.json and package-lock.json. Each check runs on the real files, and on a broken copy to show what it catches.
import { describe, expect, it } from 'vitest';
import {
  composePasswordProblems,
  copyProblems,
  healthcheckProblems,
  leftoverProblems,
  nodeHeadersProblems,
  signalProblems,
  startClosure,
  startEntries,
  type PackageJson,
} from './image-checks.ts';
import { demoProblems, workspaceLinkProblems, type PackageLock } from './image-demo-checks.ts';
import { dockerfileStages, readRepoFile } from './image-files.ts';

const dockerfile = readRepoFile('Dockerfile');
const compose = readRepoFile('docker-compose.yml');
const dockerignore = readRepoFile('.dockerignore');
const pkg = JSON.parse(readRepoFile('package.json')) as PackageJson;
const lock = JSON.parse(readRepoFile('package-lock.json')) as PackageLock;
const stages = dockerfileStages(dockerfile);
/** The Dockerfile without the lines that match `line`. */
const without = (line: RegExp) => dockerfileStages(dockerfile.replace(line, ''));

describe('the Docker image, from its files', () => {
  it("runs a command that receives Docker's SIGTERM and SIGINT: exec form, and npm's script execs node", () => {
    expect(signalProblems(stages, pkg, compose)).toEqual([]);
    const shellForm = dockerfileStages(dockerfile.replace(/^CMD .*$/m, 'CMD npm start'));
    expect(signalProblems(shellForm, pkg, compose)).toEqual([
      expect.stringMatching(/^Dockerfile: CMD is in shell form/),
    ]);
    const notJson = dockerfileStages(dockerfile.replace(/^CMD .*$/m, 'CMD [npm, start]'));
    expect(signalProblems(notJson, pkg, compose)).toEqual([expect.stringMatching(/^Dockerfile: CMD is in shell form/)]);
    const noExec = {
      ...pkg,
      scripts: { ...pkg.scripts, start: 'node scripts/require-node.mjs && node src/bin/start.ts' },
    };
    expect(signalProblems(stages, noExec, compose)).toEqual([
      expect.stringMatching(/^package.json: the "start" script the image runs does not exec node/),
    ]);
    const composeShell = compose.replace(/^( {4}build: \.)$/m, '$1\n    command: npm start');
    expect(signalProblems(stages, pkg, composeShell)).toEqual([
      expect.stringMatching(/saybot service's command is a string/),
    ]);
  });

  it('copies into its final stage every runtime dependency and every file the start reads', () => {
    expect(copyProblems(stages, pkg, dockerignore)).toEqual([]);
    const noScripts = dockerfileStages(dockerfile.replace(/^COPY scripts .*$/m, ''));
    expect(copyProblems(noScripts, pkg, dockerignore)).toEqual([
      expect.stringMatching(/does not copy scripts, which the start reads/),
    ]);
    // The in-process sandbox SayBot starts when no Voice API is configured.
    expect(copyProblems(without(/^COPY packages\/voice-sandbox \.\/.*$/m), pkg, dockerignore)).toEqual([
      expect.stringMatching(/does not copy packages\/voice-sandbox, which the start reads/),
    ]);
    const { pino: _pino, ...withoutPino } = pkg.dependencies;
    expect(copyProblems(stages, { ...pkg, dependencies: withoutPino }, dockerignore)).toEqual([
      expect.stringMatching(/imports pino, which is not in package.json's dependencies/),
    ]);
    expect(copyProblems(stages, pkg, `${dockerignore}\nscripts/\n`)).toEqual([
      '.dockerignore leaves out scripts, which the start reads',
    ]);
  });

  it("ships none of the Opus addon's build leftovers (its sources and node-gyp's objects)", () => {
    expect(leftoverProblems(stages)).toEqual([]);
  });

  // It reads the closure of every file npm run demo starts from, several times: slow on a busy machine.
  it('holds what npm run demo reads where the repository has it: the demo, the sandbox, the local Discord', () => {
    const { files } = startClosure(startEntries(['npm', 'run', 'demo'], pkg));
    expect([...files]).toEqual(
      expect.arrayContaining([
        'demo/demo.ts',
        'src/bin/start.ts',
        'packages/voice-sandbox/src/index.ts',
        'packages/local-discord/src/index.ts',
        'packages/local-discord/tls/voice-gateway.cert.pem',
        // The dashboard's stylesheet and scripts, served from its web/ folder as they are.
        'src/features/dashboard/web/design.css',
        'src/features/dashboard/web/enhance.js',
      ]),
    );
    expect(demoProblems(stages, pkg, dockerignore)).toEqual([]);
    expect(demoProblems(stages, pkg, `${dockerignore}\ndemo/\n`)).toEqual([
      '.dockerignore leaves out demo/demo.ts, which npm run demo reads',
    ]);
    expect(demoProblems(stages, pkg, `${dockerignore}\npackages/voice-sandbox\n`)).toEqual([
      expect.stringMatching(/^\.dockerignore leaves out packages\/voice-sandbox\/\S+, which npm run demo reads$/),
    ]);
    expect(demoProblems(stages, pkg, `${dockerignore}\n**/*.pem\n`)).toEqual([
      '.dockerignore leaves out packages/local-discord/tls/voice-gateway.cert.pem, which npm run demo reads',
    ]);
    expect(demoProblems(stages, pkg, `${dockerignore}\n**/*.css\n`)).toEqual([
      '.dockerignore leaves out src/features/dashboard/web/design.css, which npm run demo reads',
    ]);
    expect(demoProblems(without(/^COPY packages\/local-discord \.\/.*$/m), pkg, dockerignore)).toEqual([
      expect.stringMatching(
        /^Dockerfile: stage \(final\) does not copy packages\/local-discord\/\S+, which npm run demo reads$/,
      ),
    ]);
    const elsewhere = dockerfileStages(
      dockerfile.replace(/^COPY packages\/local-discord \.\/.*$/m, 'COPY packages/local-discord ./local-discord'),
    );
    expect(demoProblems(elsewhere, pkg, dockerignore)).toEqual([
      expect.stringMatching(
        /copies packages\/local-discord\/\S+ to \/app\/local-discord\/\S+, not \/app\/packages\/local-discord\//,
      ),
    ]);
    const noOutput = dockerfileStages(dockerfile.replace(/ \/app\/demo-output/g, ''));
    expect(demoProblems(noOutput, pkg, dockerignore)).toEqual([
      'Dockerfile: the final stage runs as node and does not give it /app/demo-output, where npm run demo writes by default',
    ]);
  }, 90_000);

  it("keeps npm's workspace link to the local Discord pointing at a package the image holds", () => {
    expect(workspaceLinkProblems(stages, lock, dockerignore)).toEqual([]);
    expect(workspaceLinkProblems(without(/^COPY packages\/local-discord \.\/.*$/m), lock, dockerignore)).toEqual([
      expect.stringMatching(/does not copy packages\/local-discord\/package.json: the image's link .* dangles$/),
      expect.stringMatching(/does not copy packages\/local-discord\/src\/index.ts: the image's link .* dangles$/),
    ]);
    expect(
      workspaceLinkProblems(without(/^COPY packages\/local-discord\/package.json .*$/m), lock, dockerignore),
    ).toEqual([
      expect.stringMatching(
        /^Dockerfile: stage deps does not copy packages\/local-discord\/package.json: npm ci makes no link/,
      ),
    ]);
    const moved = {
      packages: {
        ...lock.packages,
        'node_modules/@saybot/local-discord': { resolved: 'nowhere/local-discord', link: true },
      },
    };
    expect(workspaceLinkProblems(stages, moved, dockerignore)).toEqual([
      'package-lock.json: @saybot/local-discord links to nowhere/local-discord, which holds no package.json',
    ]);
  });

  it("builds the Opus addon from source, when it must, against the base image's Node headers (no download)", () => {
    expect(nodeHeadersProblems(stages)).toEqual([]);
    expect(nodeHeadersProblems(without(/^ENV npm_config_nodedir=.*$/m))).toEqual([
      expect.stringMatching(/^Dockerfile: stage deps runs npm ci with npm_config_nodedir unset: a source build/),
    ]);
  });

  it('says whether SayBot is healthy: a HEALTHCHECK in exec form, and /healthz served by default', () => {
    expect(healthcheckProblems(stages)).toEqual([]);
    expect(healthcheckProblems(without(/^HEALTHCHECK .*$/m))).toEqual([
      'Dockerfile: the final stage has no HEALTHCHECK',
    ]);
    expect(healthcheckProblems(without(/^ENV METRICS_PORT=.*$/m))).toEqual([
      'Dockerfile: the final stage sets no METRICS_PORT (unset): /healthz is served only with one',
    ]);
  });

  it('gives compose a DATABASE_URL that parses with the password compose says to generate', () => {
    expect(composePasswordProblems(compose)).toEqual([]);
    const base64 = compose.replace(/openssl rand -hex 24/g, 'openssl rand -base64 24');
    expect(composePasswordProblems(base64)).toEqual([
      expect.stringMatching(/does not say how to make POSTGRES_PASSWORD/),
    ]);
  });
});
