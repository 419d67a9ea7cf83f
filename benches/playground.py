#!/usr/bin/env python3
"""The playground page's size and start-up time (issue 20): exports the page with `warpdbg export --playground`,
then opens it from file:// in headless Chromium RUNS times (a fresh browser each time) and reads how long after
navigation the first debugger screen was drawn (the page's `window.warpdbgFirstScreen`, performance.now() when
the first frame is on screen: the WebAssembly unpacked, compiled and instantiated, deadlock.cu compiled and
drawn). Chromium is driven over --remote-debugging-pipe (NUL-separated JSON on fds 3 and 4). Prints markdown.

    bash .ci/page && python3 benches/playground.py [WARPDBG] [RUNS]
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/warpdbg"
RUNS = int(sys.argv[2]) if len(sys.argv) > 2 else 5
WASM = "target/wasm32-unknown-unknown/web/warpdbg.wasm"
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
