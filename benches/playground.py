#!/usr/bin/env python3
"""The playground page's size and start-up time (issue 20): exports the page with `warpdbg export --playground`,
then opens it from file:// in headless Chromium RUNS times (a fresh browser each time) and reads how long after
navigation the first debugger screen was drawn (the page's `window.warpdbgFirstScreen`, performance.now() when
the first frame is on screen: the WebAssembly unpacked, compiled and instantiated, deadlock.cu compiled and
drawn). Chromium is driven over --remote-debugging-pipe (NUL-separated JSON on fds 3 and 4). Prints markdown.

With `--continue`, times `c` instead (issue 35): kernels/reduce_neighbored.cu at n = 1 << 20 (5.5 million steps)
opened in the page, `c` pressed, and the time until the continue stopped by the page's performance.now(),
against the terminal's debugger on the same kernel (`warpdbg view --steps 1e9`, which continues to the end the
way `c` does, less `view --steps 0`: the compile and the drawing) with one thread (RAYON_NUM_THREADS=1) and
with every core.

    bash .ci/page && python3 benches/playground.py [--continue [--profile DIR]] [WARPDBG] [RUNS]
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

CONTINUE = "--continue" in sys.argv[1:]
# `--profile DIR` (with --continue): the page's CPU profile of each run's `c` (DevTools' Profiler domain, the
# page's main thread: the WebAssembly, the script, and what the browser does for it) as DIR/continue-K.cpuprofile.
PROFILE = sys.argv[sys.argv.index("--profile") + 1] if "--profile" in sys.argv else None
ARGS = [a for i, a in enumerate(sys.argv[1:], 1) if a not in ("--continue", "--profile") and sys.argv[i - 1] != "--profile"]
BIN = ARGS[0] if ARGS else "target/release/warpdbg"
RUNS = int(ARGS[1]) if len(ARGS) > 1 else 5
KERNEL = "kernels/reduce_neighbored.cu"
N = "1 << 20"
WASM = os.environ.get("WARPDBG_PAGE_WASM", "target/wasm32-unknown-unknown/web/warpdbg.wasm")
os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


class Browser:
    def __init__(self, profile):
        # Chromium reads commands on fd 3 and writes replies on fd 4: our pipes go there.
        self.proc = subprocess.Popen(
            ["sh", "-c", 'exec "$0" "$@" 3<&0 4>&1 0</dev/null 1>/dev/null', "/usr/bin/chromium", "--headless",
             "--no-sandbox", "--disable-gpu", "--window-size=1600,1000", "--no-first-run",
             "--disable-background-networking", "--remote-debugging-pipe", f"--user-data-dir={profile}",
             "about:blank"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
        self.to, self.frm, self.buf, self.id, self.session = self.proc.stdin, self.proc.stdout.fileno(), b"", 0, None

    def call(self, method, params=None):
        self.id += 1
        msg = {"id": self.id, "method": method, "params": params or {}}
        if self.session:
            msg["sessionId"] = self.session
        self.to.write(json.dumps(msg).encode() + b"\0")
        self.to.flush()
        while True:
            while b"\0" not in self.buf:
                self.buf += os.read(self.frm, 1 << 16)
            line, self.buf = self.buf.split(b"\0", 1)
            v = json.loads(line)
            if v.get("id") == self.id:
                return v.get("result", {})

    def eval(self, expr):
        return self.call("Runtime.evaluate", {"expression": expr, "returnByValue": True})["result"].get("value")

    def close(self):
        # Chromium's helper processes too (they share its process group).
        os.killpg(self.proc.pid, 9)
        self.proc.wait()


def first_screen_ms(url, profile):
    b = Browser(profile)
    try:
        t = b.call("Target.createTarget", {"url": url})
        a = b.call("Target.attachToTarget", {"targetId": t["targetId"], "flatten": True})
        b.session = a["sessionId"]
        deadline = time.time() + 60
        while time.time() < deadline:
            v = b.eval("window.warpdbgFirstScreen")
            if v is not None:
                return v
            time.sleep(0.01)
        raise RuntimeError("no first screen in 60 s")
    finally:
        b.close()


def attach(url, profile):
    b = Browser(profile)
    t = b.call("Target.createTarget", {"url": url})
    a = b.call("Target.attachToTarget", {"targetId": t["targetId"], "flatten": True})
    b.session = a["sessionId"]
    return b


# In the page: the kernel at n = N opened from the editor, then `c` and its time until the run stopped (the
# page's own clock), polled from a timer so the poll costs the run nothing measurable.
CONTINUE_JS = """new Promise(done => {
  const src = document.getElementById('source');
  src.value = SOURCE;
  warpdbg.open();
  const t0 = performance.now();
  warpdbg.key('c');
  const poll = () => warpdbg.busy() ? setTimeout(poll, 2) : done([performance.now() - t0, warpdbg.steps()]);
  poll();
})"""


def cpu_ms(pgid):
    """CPU time (user + system) of every process in Chromium's process group: on a busy machine a fairer
    figure than the wall clock."""
    t = 0
    for d in filter(str.isdigit, os.listdir("/proc")):
        try:
            f = open(f"/proc/{d}/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(f[2]) == pgid:
            t += int(f[11]) + int(f[12])
    return t * 1000 / os.sysconf("SC_CLK_TCK")


def continue_ms(url, profile, source, run=0):
    b = attach(url, profile)
    try:
        deadline = time.time() + 60
        while b.eval("window.warpdbgFirstScreen") is None:
            if time.time() > deadline:
                raise RuntimeError("no first screen in 60 s")
            time.sleep(0.01)
        expr = CONTINUE_JS.replace("SOURCE", json.dumps(source))
        if PROFILE:
            b.call("Profiler.enable")
            b.call("Profiler.setSamplingInterval", {"interval": 200})
            b.call("Profiler.start")
        cpu = cpu_ms(b.proc.pid)
        r = b.call("Runtime.evaluate", {"expression": expr, "returnByValue": True, "awaitPromise": True})
        if PROFILE:
            os.makedirs(PROFILE, exist_ok=True)
            with open(os.path.join(PROFILE, f"continue-{run}.cpuprofile"), "w") as f:
                json.dump(b.call("Profiler.stop")["profile"], f)
        # (The CPU time includes opening the kernel: compiling it and filling its 4 MB of input.)
        return r["result"]["value"] + [cpu_ms(b.proc.pid) - cpu]
    finally:
        b.close()


def terminal_s(threads, steps):
    """Wall and CPU seconds of `warpdbg view` at `steps`."""
    env = dict(os.environ, RAYON_NUM_THREADS=str(threads))
    before, t = os.times(), time.perf_counter()
    subprocess.run([BIN, "view", KERNEL, "--arg", "n=1048576", "--steps", steps], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    after = os.times()
    return time.perf_counter() - t, (after.children_user + after.children_system) - (before.children_user + before.children_system)


if CONTINUE:
    source = open(KERNEL).read().replace("// @arg n = 1 << 13", f"// @arg n = {N}")
    assert N in source
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as d:
        page = os.path.join(d, "playground.html")
        subprocess.run([BIN, "export", "--playground", page, "--wasm", WASM], check=True)
        runs = [continue_ms("file://" + page, os.path.join(d, f"profile{i}"), source, i) for i in range(RUNS)]
    page_ms, steps, page_cpu = [r[0] for r in runs], {r[1] for r in runs}, [r[2] for r in runs]
    term, term_cpu = {}, {}
    for threads in (1, os.cpu_count()):
        base = [terminal_s(threads, "0") for _ in range(RUNS)]
        wall0, cpu0 = statistics.median(x[0] for x in base), statistics.median(x[1] for x in base)
        full = [terminal_s(threads, "1e9") for _ in range(RUNS)]
        term[threads] = [1000 * (x[0] - wall0) for x in full]
        term_cpu[threads] = [1000 * (x[1] - cpu0) for x in full]
    one, med = statistics.median(term[1]), statistics.median
    print(f"| `c` on {KERNEL}, n = {N} ({', '.join(str(int(s)) for s in sorted(steps))} steps), median of {RUNS} | wall | CPU |")
    print(f"|---|---|---|")
    print(f"| the page (headless Chromium; wall min {min(page_ms):.0f}, max {max(page_ms):.0f}) | {med(page_ms):.0f} ms | {med(page_cpu):.0f} ms |")
    print(f"| the terminal, one thread (wall min {min(term[1]):.0f}, max {max(term[1]):.0f}) | {one:.0f} ms | {med(term_cpu[1]):.0f} ms |")
    print(f"| the terminal, {os.cpu_count()} threads | {med(term[os.cpu_count()]):.0f} ms | {med(term_cpu[os.cpu_count()]):.0f} ms |")
    print(f"| the page / the terminal (one thread) | {med(page_ms) / one:.1f}x | {med(page_cpu) / med(term_cpu[1]):.1f}x |")
    sys.exit(0)

with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as d:
    page = os.path.join(d, "playground.html")
    subprocess.run([BIN, "export", "--playground", page, "--wasm", WASM], check=True)
    times = [first_screen_ms("file://" + page, os.path.join(d, f"profile{i}")) for i in range(RUNS)]
    size, wasm = os.path.getsize(page), os.path.getsize(WASM)
print(f"| what | figure | target |")
print(f"|---|---|---|")
print(f"| page (`export --playground`, WebAssembly zlib-compressed and base64-inlined, 11 bundled files) | {size / 1e6:.2f} MB ({size} bytes) | under 4 MB |")
print(f"| the WebAssembly module itself (profile `web`) | {wasm / 1e6:.2f} MB | |")
print(f"| start-up to the first screen (headless Chromium, file://, median of {RUNS}; min {min(times):.0f}, max {max(times):.0f}) | {statistics.median(times):.0f} ms | under 1 s |")
