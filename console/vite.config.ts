// Builds the operator console (a Preact single-page app) into dist/console, which the admin listener
// serves at `/`. JSX goes through Vite's own transform (oxc): no plugin. Nothing is fetched from
// elsewhere at run time: no CDN, no remote fonts; the app talks only to `/api/v1` on its own origin.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here("."),
  // Relative asset URLs: the page works wherever the listener mounts it.
  base: "./",
  publicDir: false,
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: here("../dist/console"),
    emptyOutDir: true,
    target: "es2022",
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
  server: {
    // `vite --config console/vite.config.ts` for development against a running gateway's admin listener.
    proxy: { "/api": process.env.SHARPSHARP_CONSOLE_API ?? "http://127.0.0.1:9464" },
  },
});
