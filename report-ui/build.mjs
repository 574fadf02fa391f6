// Builds the report's UI into the Python package (src/dbt_lineage/outputs/report/bundle/):
// one report.js (IIFE) and one report.css, minified, with no source maps or timestamps so the
// same sources and lockfile give the same bytes (.ci/run checks that).
import * as esbuild from "esbuild";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, "..", "src", "dbt_lineage", "outputs", "report", "bundle");

await esbuild.build({
  entryPoints: { report: path.join(here, "src", "main.jsx") },
  outdir: out,
  bundle: true,
  minify: true,
  format: "iife",
  target: ["chrome105", "firefox115", "safari16"],
  jsx: "automatic",
  jsxImportSource: "preact",
  legalComments: "none",
  charset: "utf8",
  logLevel: "warning",
  absWorkingDir: here,
});
