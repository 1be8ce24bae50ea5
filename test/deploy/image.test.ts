// The Docker image checked where no Docker engine is: from the Dockerfile, docker-compose.yml, .dockerignore and
// package.json. Each check runs on the real files, and on a broken copy to show what it catches.
import { describe, expect, it } from 'vitest';
import {
  composePasswordProblems,
  copyProblems,
  leftoverProblems,
  signalProblems,
  type PackageJson,
} from './image-checks.ts';
import { dockerfileStages, readRepoFile } from './image-files.ts';

const dockerfile = readRepoFile('Dockerfile');
const compose = readRepoFile('docker-compose.yml');
const dockerignore = readRepoFile('.dockerignore');
const pkg = JSON.parse(readRepoFile('package.json')) as PackageJson;
const stages = dockerfileStages(dockerfile);

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

  it('gives compose a DATABASE_URL that parses with the password compose says to generate', () => {
    expect(composePasswordProblems(compose)).toEqual([]);
    const base64 = compose.replace(/openssl rand -hex 24/g, 'openssl rand -base64 24');
    expect(composePasswordProblems(base64)).toEqual([
      expect.stringMatching(/does not say how to make POSTGRES_PASSWORD/),
    ]);
  });
});
