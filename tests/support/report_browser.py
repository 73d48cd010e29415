#!/usr/bin/env python3
"""tests/support/report_browser.py -- opens an rtpack report in headless
Chromium over the DevTools protocol (--remote-debugging-pipe: file
descriptors 3 and 4, NUL-terminated JSON; python3's standard library only)
and checks what a reader would see:

  - no console message of any level, no exception, no log entry (the page has
    no script and a Content-Security-Policy of default-src 'none', so any
    attempt to fetch something is logged as a violation and fails here);
  - at each width (desktop 1280 px, phone 390 px) the page does not scroll
    sideways (wide tables and the Gantt chart scroll inside their own boxes);
  - a full-page screenshot at each width: a PNG of that width and of the
    page's height, large enough not to be blank;
  - printed (print media, A4): a PDF of at least one page.

usage: report_browser.py PAGE.html --desktop OUT.png --phone OUT.png
                         [--phone-screen OUT.png] [--pdf OUT.pdf] [--chromium BIN]
                         [--timeout S]
(--phone-screen: also the first screen of the phone view, 390 x 844, as a
phone shows it.)
Exit 0 when every check holds; 1 with one line per failed check; 77 when no
Chromium is installed (the test is then skipped, saying so).
"""
import argparse
import base64
import json
import os
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import time

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--remote-debugging-pipe"]
WIDTHS = {"desktop": (1280, 900, False), "phone": (390, 844, True)}
MAX_HEIGHT = 16000  # a screenshot taller than this is cut (Chromium's own limit is 16384)


class Browser:
    def __init__(self, binary, timeout):
        self.deadline = time.monotonic() + timeout
        self.profile = tempfile.mkdtemp(prefix="rtp_chromium.")
        to_chrome = os.pipe()
        from_chrome = os.pipe()

        def child():  # the pipe ends become fds 3 (commands) and 4 (answers)
            a, b = os.dup(to_chrome[0]), os.dup(from_chrome[1])
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [binary] + FLAGS + ["--user-data-dir=" + self.profile, "about:blank"],
            preexec_fn=child, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, close_fds=False)
        os.close(to_chrome[0])
        os.close(from_chrome[1])
        self.out, self.inp = to_chrome[1], from_chrome[0]
        self.buf = b""
        self.next_id = 0
        self.events = []

    def _message(self):
        while b"\0" not in self.buf:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("Chromium did not answer in time")
            ready, _, _ = select.select([self.inp], [], [], left)
            if ready:
                data = os.read(self.inp, 1 << 20)
                if not data:
                    raise EOFError("Chromium closed the pipe")
                self.buf += data
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.out, json.dumps(msg).encode() + b"\0")
        while True:
            m = self._message()
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m["result"]
            self.events.append(m)

    def wait(self, method):
        for i, e in enumerate(self.events):
            if e.get("method") == method:
                return self.events.pop(i)
        while True:
            m = self._message()
            if m.get("method") == method:
                return m
            self.events.append(m)

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.out)
        os.close(self.inp)
        shutil.rmtree(self.profile, ignore_errors=True)


def png_size(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", data[16:24])


def console_lines(events):
    lines = []
    for e in events:
        m, p = e.get("method"), e.get("params", {})
        if m == "Runtime.consoleAPICalled":
            args = " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
            lines.append("console.%s: %s" % (p.get("type"), args))
        elif m == "Runtime.exceptionThrown":
            lines.append("exception: %s" % p.get("exceptionDetails", {}).get("text"))
        elif m == "Log.entryAdded":
            entry = p.get("entry", {})
            lines.append("log (%s, %s): %s" % (entry.get("source"), entry.get("level"),
                                              entry.get("text")))
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("page")
    ap.add_argument("--desktop", required=True)
    ap.add_argument("--phone", required=True)
    ap.add_argument("--phone-screen")
    ap.add_argument("--pdf")
    ap.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"))
    ap.add_argument("--timeout", type=float, default=60)
    a = ap.parse_args()
    if not a.chromium:
        print("report_browser: no chromium on PATH (Debian package chromium, .ci/setup): skipped")
        return 77
    url = "file://" + os.path.abspath(a.page)
    fails = []
    b = Browser(a.chromium, a.timeout)
    try:
        target = b.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        s = b.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page.enable", "Runtime.enable", "Log.enable"):
            b.call(domain, session=s)
        for name, (width, screen, mobile) in WIDTHS.items():
            b.call("Emulation.setDeviceMetricsOverride",
                   {"width": width, "height": screen, "deviceScaleFactor": 1, "mobile": mobile},
                   session=s)
            b.call("Page.navigate", {"url": url}, session=s)
            b.wait("Page.loadEventFired")
            wide = b.call("Runtime.evaluate",
                          {"expression": "document.documentElement.scrollWidth",
                           "returnByValue": True}, session=s)["result"]["value"]
            if wide > width:
                fails.append("%s: the page is %d px wide at a %d px viewport (it scrolls "
                             "sideways)" % (name, wide, width))
            if name == "phone" and a.phone_screen:
                first = b.call("Page.captureScreenshot", {"format": "png"}, session=s)["data"]
                with open(a.phone_screen, "wb") as f:
                    f.write(base64.b64decode(first))
            height = b.call("Page.getLayoutMetrics", session=s)["cssContentSize"]["height"]
            height = min(int(height + 0.5), MAX_HEIGHT)
            b.call("Emulation.setDeviceMetricsOverride",
                   {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile},
                   session=s)
            shot = base64.b64decode(b.call("Page.captureScreenshot", {"format": "png"},
                                           session=s)["data"])
            size = png_size(shot)
            out = a.desktop if name == "desktop" else a.phone
            with open(out, "wb") as f:
                f.write(shot)
            if not size or size[0] != width or size[1] < 600 or len(shot) < 30000:
                fails.append("%s: screenshot %s, %d bytes: want %d px wide, at least 600 px "
                             "tall and 30000 bytes" % (name, size, len(shot), width))
            else:
                print("report_browser: %s %dx%d, %d bytes -> %s" % (name, size[0], size[1],
                                                                   len(shot), out))
        b.call("Emulation.clearDeviceMetricsOverride", session=s)
        b.call("Emulation.setEmulatedMedia", {"media": "print"}, session=s)
        pdf = base64.b64decode(b.call("Page.printToPDF",
                                      {"paperWidth": 8.27, "paperHeight": 11.69,
                                       "printBackground": False, "preferCSSPageSize": True},
                                      session=s)["data"])
        pages = pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")
        if not pdf.startswith(b"%PDF") or pages < 1:
            fails.append("print: not a PDF of at least one page (%d bytes)" % len(pdf))
        else:
            print("report_browser: printed %d A4 page(s), %d bytes" % (pages, len(pdf)))
        if a.pdf:
            with open(a.pdf, "wb") as f:
                f.write(pdf)
        for line in console_lines(b.events):
            fails.append("console: " + line)
    except (TimeoutError, EOFError, RuntimeError, KeyError) as e:
        fails.append("browser: %s" % e)
    finally:
        b.close()
    for f in fails:
        print("report_browser: FAIL %s" % f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
