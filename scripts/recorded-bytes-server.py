#!/usr/bin/env python3
"""Serves benchmark (h)'s recording with Python's http.server: a server that is not ours (docs/BENCHMARKS.md).

    python3 scripts/recorded-bytes-server.py .build-bench/scratch/extraction-cpu/extraction-cpu.recording \
        [--port 8765] [--http-1.0]
    .build-release/release/connect-recon-bench --only extraction-cpu --recorded-bytes-server http://127.0.0.1:8765

The same answers as the benchmark's own recorded-bytes server (Sources/ConnectReconBench/RecordedLists.swift): the
recorded response of the same target; else a list's recorded objects sliced to the request's window, cursor and limit;
else, for a retrieve, the object as some recorded response held it; else 404. `--http-1.0` answers as http.server does
by default, closing the connection after every response. Prints the requests it could not answer when stopped (^C or
SIGTERM).
"""
import argparse, json, signal, struct
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote

WINDOW = {"created[gte]", "created[gt]", "created[lt]", "created[lte]", "limit", "starting_after"}


def read_recording(path):
    data, offset = open(path, "rb").read(), 0

    def integer():
        nonlocal offset
        value = struct.unpack_from("<I", data, offset)[0]
        offset += 4
        return value

    def blob():
        nonlocal offset
        count = integer()
        offset += count
        return data[offset - count:offset]

    responses = []
    for _ in range(integer()):
        target, status = blob().decode(), integer()
        headers = {}
        for _ in range(integer()):
            name = blob().decode()
            headers[name] = blob().decode()
        responses.append((target, status, headers, blob()))
    return responses


def split(target):
    path, _, query = target.partition("?")
    filters, window = [], {}
    for pair in filter(None, query.split("&")):
        name, _, value = pair.partition("=")
        name, value = unquote(name), unquote(value)
        if name in WINDOW:
            window[name] = value
        else:
            filters.append(name + "=" + value)
    return path, "&".join([path] + sorted(filters)), window


class Recording:
    def __init__(self, responses):
        self.exact, self.lists, self.objects, seen = {}, {}, {}, {}
        for target, status, headers, body in responses:
            self.exact[target] = (status, headers, body)
            if status != 200:
                continue
            document = json.loads(body)
            if not isinstance(document.get("data"), list):
                if "id" in document:
                    self.objects.setdefault(document["id"], body)
                continue
            _, key, _ = split(target)
            items = self.lists.setdefault(key, ([], headers))[0]
            for item in document["data"]:
                if "created" in item and item["id"] not in seen.setdefault(key, set()):
                    seen[key].add(item["id"])
                    # Re-serialized compactly: Python keeps no byte ranges (the Swift server sends the bytes as received).
                    encoded = json.dumps(item, separators=(",", ":"), ensure_ascii=False).encode()
                    items.append((item["id"], item["created"], encoded))
                    self.objects.setdefault(item["id"], encoded)
        for items, _ in self.lists.values():
            order = {id(entry): n for n, entry in enumerate(items)}
            items.sort(key=lambda entry: (-entry[1], order[id(entry)]))

    def answer(self, target):
        if target in self.exact:
            return self.exact[target]
        path, key, window = split(target)
        if key in self.lists:
            items, headers = self.lists[key]
            low = int(window["created[gte]"]) if "created[gte]" in window else None
            high = int(window["created[lt]"]) if "created[lt]" in window else None
            chosen = [i for i in items if (low is None or i[1] >= low) and (high is None or i[1] < high)]
            if "starting_after" in window:
                ids = [i[0] for i in chosen]
                if window["starting_after"] not in ids:
                    return None
                chosen = chosen[ids.index(window["starting_after"]) + 1:]
            limit = int(window.get("limit", 10))
            body = b'{"object":"list","data":[' + b",".join(i[2] for i in chosen[:limit]) + b'],"has_more":' + (
                b"true" if len(chosen) > limit else b"false") + b',"url":"' + path.encode() + b'"}'
            return 200, headers, body
        parts = path.split("/")
        if len(parts) == 4 and parts[3] in self.objects:
            return 200, {"content-type": "application/json"}, self.objects[parts[3]]
        return None


def main():
    arguments = argparse.ArgumentParser()
    arguments.add_argument("recording")
    arguments.add_argument("--port", type=int, default=8765)
    arguments.add_argument("--http-1.0", dest="http10", action="store_true")
    options = arguments.parse_args()
    recording, misses = Recording(read_recording(options.recording)), []

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0" if options.http10 else "HTTP/1.1"

        def do_GET(self):
            answer = recording.answer(self.path)
            if answer is None:
                misses.append(self.path)
                answer = (404, {"content-type": "application/json"},
                          b'{"error":{"type":"invalid_request_error","message":"Not in the recording."}}')
            status, headers, body = answer
            self.send_response(status)
            for name, value in headers.items():
                if name not in ("content-length", "connection", "transfer-encoding", "server"):
                    self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", options.port), Handler)
    print(f"serving {len(recording.exact)} recorded responses on http://127.0.0.1:{options.port}", flush=True)
    def stop(*_):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print(f"{len(misses)} requests not in the recording", *misses[:10], sep="\n")


if __name__ == "__main__":
    main()
