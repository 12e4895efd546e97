#!/usr/bin/env node
// The compiled CLI; `npm ci` builds it (the "prepare" script), `npm run build` rebuilds it.
import { existsSync } from "node:fs";

const cli = new URL("../dist/src/cli.js", import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write("sharpsharp is not built yet: run `npm run build` (npm ci does it for you).\n");
  process.exit(1);
}
await import(cli.href);
