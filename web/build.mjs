// Builds the page into the Python package, where the bot serves it: no Node at run time.
//
//   npm run build              → ../bot/activity/static (the committed copy)
//   npm run build -- DIR       → DIR/index.html, DIR/assets/app.js, DIR/assets/app.css
//
// The output is a pure function of the sources and the lock (esbuild's output is deterministic; no
// source map, no timestamps, no absolute paths), so tests/activity/test_bundle.py can rebuild it
// elsewhere and demand the committed files byte for byte.
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const out = resolve(process.argv[2] ?? join(here, "..", "bot", "activity", "static"));
mkdirSync(join(out, "assets"), { recursive: true });

const common = {
  absWorkingDir: here,
  bundle: true,
  minify: true,
  sourcemap: false,
  charset: "utf8",
  // Discord's clients: current desktop browsers and the phones' webviews (iOS 15's Safari and up).
  target: ["es2020", "chrome100", "safari15", "firefox100"],
  logLevel: "warning",
};
await build({
  ...common,
  entryPoints: ["src/main.js"],
  outfile: join(out, "assets", "app.js"),
  format: "esm",
  platform: "browser",
  // The SDK's licences (MIT: its own, zod's, lodash's…) stay in the bundle, at its end.
  legalComments: "eof",
});
await build({ ...common, entryPoints: ["src/app.css"], outfile: join(out, "assets", "app.css") });
copyFileSync(join(here, "src", "index.html"), join(out, "index.html"));
