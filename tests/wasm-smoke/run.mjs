// Runs the smoke test's wasm32-unknown-unknown build: instantiates it (it imports nothing) and calls its
// `main`. A panic is a trap, which Node reports as an exception and a non-zero exit.
import { readFileSync } from "node:fs";

const bytes = readFileSync(process.argv[2]);
const { instance } = await WebAssembly.instantiate(bytes, {});
const exports = Object.keys(instance.exports);
console.log(`exports: ${exports.join(", ")}`);
const t = Date.now();
const code = instance.exports.main(0, 0);
console.log(`main returned ${code} in ${Date.now() - t} ms`);
process.exit(code);
