// `c` on the playground page's module without the page (issue 35's speed, measured apart from the browser):
// the module the page inlines, run under Node with the page's two imports, driven as the page drives it
// (`wd_open` the kernel at n = 1 << 20, `wd_key('c')`, then `wd_tick` until the continue stops), with the
// redraws the page makes (`wd_html` every DRAW_MS while it runs) or none (`--no-draw`). Prints the time spent
// in `wd_tick`, in `wd_html`, and in all (wall, and the process's CPU time, V8's compiler threads included). With `node --cpu-prof` it gives the profile of the same run.
//
// `--profile FILE` writes a CPU profile (`.cpuprofile`, DevTools' format) of the last run alone, after the
// runs before it have let V8 optimise the module (the steady state; a page's first `c` is the first run).
//
//     node benches/playground_node.mjs [WASM] [--no-draw] [--runs N] [--profile FILE]
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';

const args = process.argv.slice(2);
const draw = !args.includes('--no-draw');
const runsAt = args.indexOf('--runs');
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 1;
const profileAt = args.indexOf('--profile');
const profile = profileAt >= 0 ? args[profileAt + 1] : null;
const wasm = args.find(a => a.endsWith('.wasm')) ?? 'target/wasm32-unknown-unknown/web/warpdbg.wasm';
// (Paths on the command line are the caller's; the kernel is the repository's.)
const wasmBytes = readFileSync(wasm);
process.chdir(new URL('..', import.meta.url).pathname);
const DRAW_MS = 100, COLS = 160, ROWS = 50;

const source = readFileSync('kernels/reduce_neighbored.cu', 'utf8').replace('// @arg n = 1 << 13', '// @arg n = 1 << 20');
if (!source.includes('1 << 20')) throw new Error('the kernel no longer has its @arg n line');
const { instance } = await WebAssembly.instantiate(wasmBytes, {
  env: { wd_now_ms: () => performance.now(), wd_progress: () => {} },
});
const w = instance.exports;
const enc = new TextEncoder(), dec = new TextDecoder();
function put(s) {
  const b = enc.encode(s);
  const p = w.wd_alloc(b.length);
  new Uint8Array(w.memory.buffer, p, b.length).set(b);
  return [p, b.length];
}
const out = n => dec.decode(new Uint8Array(w.memory.buffer, w.wd_out_ptr(), n));

let inspector = null;
if (profile) {
  inspector = new Session();
  inspector.connect();
  await inspector.post('Profiler.enable');
  await inspector.post('Profiler.setSamplingInterval', { interval: 200 });
}
for (let run = 0; run < runs; run++) {
  if (inspector && run === runs - 1) await inspector.post('Profiler.start');
  const t0 = performance.now();
  const err = w.wd_open(...put('reduce_neighbored.cu'), ...put(source), 0);
  if (err) throw new Error(out(err));
  out(w.wd_html(COLS, ROWS));
  const t1 = performance.now(), c1 = process.cpuUsage();
  let running = w.wd_key(...put('c')) === 1, ticks = 0, draws = 0, tickMs = 0, drawMs = 0, lastDraw = performance.now();
  while (running) {
    const a = performance.now();
    running = w.wd_tick() === 1;
    const b = performance.now();
    tickMs += b - a;
    ticks++;
    if (draw && (!running || b - lastDraw >= DRAW_MS)) {
      out(w.wd_html(COLS, ROWS));
      lastDraw = performance.now();
      drawMs += lastDraw - b;
      draws++;
    }
  }
  const t2 = performance.now(), c2 = process.cpuUsage(c1);
  console.log(JSON.stringify({
    open_ms: +(t1 - t0).toFixed(1), continue_ms: +(t2 - t1).toFixed(1),
    continue_cpu_ms: +((c2.user + c2.system) / 1000).toFixed(1), tick_ms: +tickMs.toFixed(1), ticks,
    draw_ms: +drawMs.toFixed(1), draws, steps: w.wd_steps(),
  }));
}
if (inspector) {
  const { profile: p } = await inspector.post('Profiler.stop');
  writeFileSync(profile, JSON.stringify(p));
}
