// Minimal WASI runner for wasm32-wasip1 binaries (Node.js ≥ 20): node wasi-run.cjs prog.wasm args…
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
const wasmModule = new WebAssembly.Module(readFileSync(wasmPath));
const instance = new WebAssembly.Instance(wasmModule, wasi.getImportObject());
process.exitCode = wasi.start(instance);
