# The sandbox as a container image: the packed package and its production dependencies,
# run by an unprivileged user, listening on 0.0.0.0:4010.
#
#   npm ci && npm pack                      # writes platform-sandbox-<version>.tgz here
#   docker build -t platform-sandbox .
#   docker run --rm -p 4010:4010 platform-sandbox
#
# BASE is any image with Node 20.19 or later and npm (Debian-based: the user is made with
# useradd). Configuration: the command's environment variables (SANDBOX_SCENARIO,
# SANDBOX_CONTROL_TOKEN, ...) or its flags after the image name. See deploy/container/README.md.
ARG BASE=node:24-slim

FROM ${BASE} AS install
WORKDIR /app
# The dependencies first, from the lockfile: this layer is reused while they do not change.
# No peers (msw is for the library's in-process entries; the server does not load it), and
# none of the dependencies' TypeScript sources, declarations or source maps, which Node never
# runs: about 7 MB. Nor what the metrics' library brings that the server never loads: the
# tracing API's ES module builds (prom-client requires its CommonJS build) and bintrees' test
# data: about 4.3 MB.
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --omit=peer --ignore-scripts --no-audit --no-fund --no-update-notifier \
  && rm package-lock.json \
  && find node_modules -type f \( -name '*.ts' -o -name '*.cts' -o -name '*.mts' -o -name '*.map' \) -delete \
  && rm -rf node_modules/@opentelemetry/api/build/esm node_modules/@opentelemetry/api/build/esnext \
    node_modules/bintrees/test
COPY platform-sandbox-*.tgz /tmp/package/
RUN set -- /tmp/package/platform-sandbox-*.tgz \
  && if [ "$#" -ne 1 ]; then \
       echo "Expected one platform-sandbox-*.tgz beside the Dockerfile (npm pack), found $#: $*" >&2; \
       exit 1; \
     fi \
  && tar -xzf "$1" -C /app --strip-components=1 --no-same-owner

FROM ${BASE}
RUN groupadd --gid 10001 sandbox \
  && useradd --uid 10001 --gid sandbox --home-dir /nonexistent --no-create-home \
       --shell /usr/sbin/nologin sandbox \
  && mkdir /data && chown sandbox:sandbox /data
# Owned by root and read-only to the server: it writes only to /data and /tmp.
COPY --from=install /app /app
ENV NODE_ENV=production \
    SANDBOX_HOST=0.0.0.0 \
    SANDBOX_STATE_DIR=/data
USER sandbox
# Starts the server once, so that V8's code cache of its bundle is in the image (/tmp):
# every container then starts as fast as a warm `npx platform-sandbox`.
RUN node -e "const c = require('node:child_process').spawn(process.execPath, ['/app/bin/platform-sandbox.mjs', '--port', '0', '--quiet'], { env: { ...process.env, SANDBOX_HOST: '127.0.0.1', SANDBOX_STATE_DIR: '' }, stdio: ['ignore', 'pipe', 'inherit'] }); c.stdout.on('data', (d) => { if (String(d).includes('listening on')) c.kill('SIGTERM') }); c.on('exit', (code) => process.exit(code ?? 1))"
EXPOSE 4010
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.SANDBOX_PORT || process.env.PORT || 4010) + '/__sandbox/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "/app/bin/platform-sandbox.mjs"]
