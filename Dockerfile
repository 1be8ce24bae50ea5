# SayBot: the same steps as the README's quick start. Node 24 runs the TypeScript directly; no build step.

# Build stage: the compilers live only here. @discordjs/opus builds its native addon from source when no
# prebuilt binary can be fetched; the finished node_modules is all the next stage takes.
FROM node:24-bookworm-slim AS deps
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
# node-gyp builds against the headers of the Node in this image (/usr/local/include/node), which is also the Node
# that runs SayBot, so a source build downloads nothing and works where nodejs.org is out of reach.
ENV npm_config_nodedir=/usr/local
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# The workspaces' manifests, so the install matches the lock file (and links node_modules/@saybot/<package> to each
# of packages/, which the final stage copies).
COPY packages/local-discord/package.json ./packages/local-discord/
COPY packages/voice-sandbox/package.json ./packages/voice-sandbox/
COPY packages/playground/package.json ./packages/playground/
COPY packages/engine-doubles/package.json ./packages/engine-doubles/
RUN npm ci --omit=dev --no-audit --no-fund
# The /usage chart loads only the Regular weight of the shipped Noto Sans KR/JP; the other eight weights are ~90 MB.
RUN find node_modules/@expo-google-fonts -mindepth 2 -maxdepth 2 -type d ! -name 400Regular -exec rm -rf {} +
# The Opus addon's build leftovers (~9 MB): libopus's sources (deps/) and node-gyp's objects (build-tmp-napi-v3/).
# The addon loads from prebuild/, whose opus.node is a hard link to the built one, so it stays; checked here.
RUN rm -rf node_modules/@discordjs/opus/deps node_modules/@discordjs/opus/build-tmp-napi-v3 \
 && node -e "new (require('@discordjs/opus').OpusEncoder)(48000, 2)"

# Final stage: Node 24, the production dependencies, SayBot's sources and its demo; no compilers, no package lists.
FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json .npmrc ./
COPY scripts ./scripts
COPY src ./src
COPY commands ./commands
# `npm run demo` in the image: the demo and the local Discord it runs SayBot against (SayBot itself never imports
# them; ~0.4 MB). It writes to /app/demo-output, which a `-v` can put on the host.
COPY demo ./demo
COPY packages/local-discord ./packages/local-discord
# The Voice API sandbox: SayBot starts it in process when no Voice API is configured, and the demo runs against it.
COPY packages/voice-sandbox ./packages/voice-sandbox
# `npm run playground` in the image (`docker run --rm -p 127.0.0.1:8090:8090 saybot npm run playground -- --host
# 0.0.0.0 --port 8090`): the page onto the local Discord, the sandbox and SayBot (~0.1 MB).
COPY packages/playground ./packages/playground
# The engine doubles (`npm run engines`): a VOICEVOX engine and an OpenAI-compatible speech server to try the engine
# voices against (~0.1 MB).
COPY packages/engine-doubles ./packages/engine-doubles

RUN mkdir -p /app/data /app/demo-output && chown node:node /app/data /app/demo-output
VOLUME ["/app/data"]
# /healthz on 127.0.0.1 inside the container, for the HEALTHCHECK (never published: not the internet's to scrape);
# `-e METRICS_PORT=` turns it off. scripts/healthcheck.ts uses Node's fetch: the slim base has no curl.
ENV METRICS_PORT=9464
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 CMD ["node", "scripts/healthcheck.ts"]
USER node
# Exec form, and `npm start` execs node (package.json): `docker stop` (SIGTERM) and Ctrl-C (SIGINT) reach SayBot,
# which leaves voice, closes the store and exits 0. A shell form, or a script without exec, would swallow them.
CMD ["npm", "start"]
