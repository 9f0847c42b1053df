// Minimal WASI runner for wasm32-wasip1 binaries (Node.js ≥ 20): node wasi-run.js prog.wasm args…
// The module sees the current directory as "/" and "." (preopens), and exits with its code.
'use strict';
const { readFileSync } = require('node:fs');
const { WASI } = require('node:wasi');
const [, , wasmPath, ...args] = process.argv;
const wasi = new WASI({
  version: 'preview1',
  args: [wasmPath, ...args],
  env: {},
  preopens: { '/': process.cwd(), '.': process.cwd() },
  returnOnExit: true,
});
const module = new WebAssembly.Module(readFileSync(wasmPath));
const instance = new WebAssembly.Instance(module, wasi.getImportObject());
process.exitCode = wasi.start(instance);
