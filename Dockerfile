# SayBot: the same steps as the README's quick start. Node 24 runs the TypeScript directly; no build step.
FROM node:24-bookworm-slim

# @discordjs/opus builds its native addon from source when no prebuilt binary can be fetched.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY src ./src
COPY commands ./commands

ENV NODE_ENV=production
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME ["/app/data"]
USER node
CMD ["npm", "start"]
