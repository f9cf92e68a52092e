#!/usr/bin/env python3
"""Times `grundy view` on a large table (issue 29): how long after the fill its first screen is
served, and what tiles cost at each zoom level.

    scripts/bench_view.py [GRUNDY] [GAME] [SIZE] [WIDTH] [HEIGHT]

defaults: target/release/grundy wythoff 16383x16383 1280 860 (the browser window; the map takes
the window less the 360-pixel side panel and the 44-pixel header, as the page lays it out).

It starts `grundy view`, polls /api/info every 10 ms, and notes when the fill ended (every cell
done) and when the table was ready (its tiles' summaries made). Then it fetches, as a browser
does (six connections at once), what the first screen needs: the page, its script and style,
/api/info, the legend and the tiles the page's fit asks for (the same arithmetic as view.js), and
reports the time from the fill's end to the last byte. Then, per zoom level, it times 16 tiles at
random places on the table (each fetched once: no cache), with their sizes; and a pan: the screen
moved by half its width at a close zoom, counting the tiles that the move makes visible.
"""

import json
import random
import statistics
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

TILE = 256


TOKEN = ""


def get(url):
    # Every request carries the token of the printed address, as the page sends it.
    request = urllib.request.Request(url, headers={"X-Grundy-Token": TOKEN})
    with urllib.request.urlopen(request, timeout=600) as response:
        return response.read()


def visible(level, x0, y0, width, height, rows, cols):
    """The tiles (row, col) that cover the canvas: view.js's visibleTiles."""
    s = 2.0 ** level
    per = TILE >> level if level >= 0 else TILE << -level
    last_row, last_col = -(-rows // per) - 1, -(-cols // per) - 1
    i_min, i_max = y0, y0 + height / s
    j_min, j_max = x0, x0 + width / s
    return [
        (r, c)
        for r in range(max(0, int(i_min // per)), min(last_row, int(i_max // per)) + 1)
        for c in range(max(0, int(j_min // per)), min(last_col, int(j_max // per)) + 1)
    ]


def main():
    grundy = sys.argv[1] if len(sys.argv) > 1 else "target/release/grundy"
    game = sys.argv[2] if len(sys.argv) > 2 else "wythoff"
    size = sys.argv[3] if len(sys.argv) > 3 else "16383x16383"
    window = (int(sys.argv[4]) if len(sys.argv) > 4 else 1280, int(sys.argv[5]) if len(sys.argv) > 5 else 860)
    width, height = window[0] - 360, window[1] - 44
    server = subprocess.Popen([grundy, "view", game, "--size", size, "--quiet"], stdout=subprocess.PIPE, text=True)
    try:
        printed = next(w for w in server.stdout.readline().split() if w.startswith("http://"))
        # http://127.0.0.1:PORT/?token=T: the page's address and the token its requests carry.
        global TOKEN
        url, TOKEN = printed.split("?token=")
        start = time.perf_counter()
        fill_end = None
        while True:
            info = json.loads(get(url + "api/info"))
            now = time.perf_counter()
            if fill_end is None and info.get("done") == info.get("total") and info["status"] != "failed":
                fill_end = now
            if info["status"] == "ready":
                ready = now
                break
            if info["status"] == "failed":
                sys.exit("the fill failed: " + info["error"])
            time.sleep(0.01)
        rows = info["axes"][0]["max"] - info["axes"][0]["min"] + 1
        cols = info["axes"][1]["max"] - info["axes"][1]["min"] + 1
        # view.js's fitBoard.
        side, room = max(rows, cols), min(width, height) - 20
        level = info["max_level"]
        while level > info["min_level"] and side * 2.0 ** level > room:
            level -= 1
        s = 2.0 ** level
        x0, y0 = -(width / s - cols) / 2, -(height / s - rows) / 2
        tiles = visible(level, x0, y0, width, height, rows, cols)
        urls = [url, url + "view.js", url + "view.css", url + "api/info", url + "api/legend?colours=values"]
        urls += [f"{url}api/tile?level={level}&row={r}&col={c}&colours=values" for r, c in tiles]
        with ThreadPoolExecutor(6) as pool:
            sizes = list(pool.map(lambda u: len(get(u)), urls))
        screen = time.perf_counter()
        print(f"{game} {size}: fill {fill_end - start:.1f} s; tiles' summaries {ready - fill_end:.2f} s")
        print(
            f"first screen ({width}x{height} map, level {level}: {len(tiles)} tiles, "
            f"{sum(sizes[5:]) / 1024:.0f} KiB of tiles): served {screen - fill_end:.2f} s after the fill "
            f"({screen - ready:.2f} s after ready)"
        )
        rng = random.Random(29)
        print("| level | cells per pixel side | median ms per tile | max ms | median KiB |")
        print("|---|---|---|---|---|")
        for z in range(info["min_level"], info["max_level"] + 1):
            per = TILE >> z if z >= 0 else TILE << -z
            n_rows, n_cols = -(-rows // per), -(-cols // per)
            times, kib = [], []
            for _ in range(16):
                r, c = rng.randrange(n_rows), rng.randrange(n_cols)
                t = time.perf_counter()
                kib.append(len(get(f"{url}api/tile?level={z}&row={r}&col={c}&colours=values")) / 1024)
                times.append((time.perf_counter() - t) * 1000)
            cells = f"{2 ** -z}" if z < 0 else f"1/{2 ** z}"
            print(f"| {z} | {cells} | {statistics.median(times):.1f} | {max(times):.1f} | {statistics.median(kib):.0f} |")
        # A pan at level 0 near the middle: the screen moves by half its width.
        z = 0
        x0, y0 = cols / 2, rows / 2
        before = set(visible(z, x0, y0, width, height, rows, cols))
        after = set(visible(z, x0 + width / 2, y0, width, height, rows, cols))
        new = sorted(after - before)
        t = time.perf_counter()
        with ThreadPoolExecutor(6) as pool:
            list(pool.map(lambda rc: get(f"{url}api/tile?level={z}&row={rc[0]}&col={rc[1]}&colours=values"), new))
        print(
            f"pan by half a screen at level 0: {len(after)} tiles visible, {len(new)} new ones fetched in "
            f"{(time.perf_counter() - t) * 1000:.0f} ms"
        )
    finally:
        server.send_signal(2)
        server.wait()


if __name__ == "__main__":
    main()
