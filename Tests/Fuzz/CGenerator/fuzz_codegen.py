#!/usr/bin/env python3
"""Random-chart fuzzing of `statechart generate c` (docs/FUZZING.md, "The C generator").

Each iteration writes a random null-datamodel chart (random ids, event names, labels, log
texts, nesting, parallel/final/history states, In() guards, <raise>, <send> with and without
delay, <log>, and sometimes an inline <script>) into a random folder path made of hostile
names (comment ends, trigraphs, backslashes, quotes, non-ASCII, C code) under a random file
name (including names that clash with CStateCore, the C library or the trace main). Then:

  1. `statechart generate c FILE -o DIR --trace-main` must exit 0 (or 2 for a chart it refuses
     with an error line naming the file), never crash;
  2. every generated file compiles with `cc -std=c11 -Wall -Wextra -Wpedantic -Werror` (gcc,
     and clang when present), and the preprocessed header (comments removed) contains no text
     from the path or the document outside string literals;
  3. the trace main's output on random input lines equals `statechart trace FILE` on the same
     input, byte for byte (charts without <script>: `statechart trace` refuses <script> under
     the null datamodel).

usage: fuzz_codegen.py --tool STATECHART [--seconds N | --iterations N] [--seed S] [--trace-timeout T] [--keep DIR]
--seconds stops starting new charts after N seconds; a chart whose trace runs past T seconds a
line (runaway work in a debug build) is not compared.
Prints one line per failure and a last line "N passed, M failed"; exits 1 on any failure.
A failing case is kept under --keep (default .build-fuzz/codegen-findings/) with its command.
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
FLAGS = ["-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror"]
HOSTILE_FOLDERS = ["x*", "*", "*/", "/*", "??", "??/", "a\\", "\\", "\"", "'", "%s%n", "caf\u00e9", "\u2028",
                   " int injected = 1; ", "#define INJECTED_MACRO 1", "/", "..", ".", "$(id)", "`id`", "a b", "--", "*/*", "\t"]
HOSTILE_NAMES = ["trace", "SC", "sc", "Sc_core", "sc_core", "_stdio", "stdio", "string", "main", "chart", "machine",
                 "1st", "a-b", "caf\u00e9", "x", "queue", "event", "report", "_", "__x", "EOF", "NULL", "int"]
ID_ALPHABET = "abcXYZ_019-.\u00e9"
TRANSITIONS = object()  # where a state's transitions go among its children
TEXT_ALPHABET = "ab */?\\\"'%#;:<>{}\n\t\u00e9\u2028$&"


def rand_text(rng, alphabet, low, high):
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(low, high)))


def xml_escape(text):
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("\"", "&quot;").replace("\n", "&#10;").replace("\t", "&#9;"))


def rand_id(rng, used):
    while True:
        first = rng.choice("abcXYZ_\u00e9")
        candidate = first + rand_text(rng, ID_ALPHABET, 0, 6)
        if candidate not in used:
            used.add(candidate)
            return candidate


def rand_event(rng, pool):
    if pool and rng.random() < 0.7:
        return rng.choice(pool)
    name = rng.choice("abcde") + rand_text(rng, "abc._-", 0, 5)
    name = name.strip(".") or "e"
    while ".." in name:
        name = name.replace("..", ".")
    pool.append(name)
    return name


class Chart:
    def __init__(self, rng, with_script):
        self.rng = rng
        self.used = set()
        self.events = []
        self.states = []  # (id, kind)
        self.with_script = with_script
        self.script_used = False

    def content(self, depth):
        rng = self.rng
        parts = []
        for _ in range(rng.randint(0, 3)):
            roll = rng.random()
            if roll < 0.3:
                parts.append(f'<raise event="{xml_escape(rand_event(rng, self.events))}"/>')
            elif roll < 0.5:
                delay = rng.choice(["", ' delay="1s"', ' delay="250ms"'])
                parts.append(f'<send event="{xml_escape(rand_event(rng, self.events))}"{delay}/>')
            elif roll < 0.75:
                label = f' label="{xml_escape(rand_text(rng, TEXT_ALPHABET, 0, 8))}"' if rng.random() < 0.7 else ""
                expr = xml_escape("'" + rand_text(rng, TEXT_ALPHABET.replace("'", ""), 0, 10) + "'")
                parts.append(f'<log{label} expr="{expr}"/>')
            elif self.with_script and roll < 0.85:
                self.script_used = True
                code = rand_text(rng, TEXT_ALPHABET, 1, 20)
                parts.append(f"<script>{xml_escape(code)}</script>")
            elif self.states:
                target = rng.choice(self.states)[0]
                parts.append(f"<if cond=\"In('{xml_escape(target)}')\"><raise event=\"{xml_escape(rand_event(rng, self.events))}\"/><else/><log expr=\"'no'\"/></if>")
        return "".join(parts)

    def state(self, depth, budget):
        rng = self.rng
        ident = rand_id(rng, self.used)
        roll = rng.random()
        if depth >= 4 or budget[0] <= 0:
            kind = "final" if roll < 0.15 else "state"
        else:
            kind = "parallel" if roll < 0.2 else ("final" if roll < 0.3 else "state")
        budget[0] -= 1
        self.states.append((ident, kind))
        body = []
        if rng.random() < 0.4:
            body.append(f"<onentry>{self.content(depth)}</onentry>")
        if rng.random() < 0.3:
            body.append(f"<onexit>{self.content(depth)}</onexit>")
        if kind != "final":
            children = []
            if depth < 4 and budget[0] > 0 and (kind == "parallel" or rng.random() < 0.35):
                for _ in range(rng.randint(1, 3)):
                    children.append(self.state(depth + 1, budget))
                if kind == "state" and rng.random() < 0.3:
                    hid = rand_id(rng, self.used)
                    htype = rng.choice(["shallow", "deep"])
                    children.append(f'<history id="{xml_escape(hid)}" type="{htype}"/>')
            body.append(TRANSITIONS)
            body.extend(children)
        return (ident, kind, body)

    def render(self, node):
        ident, kind, body = node
        out = []
        for part in body:
            if part is TRANSITIONS:
                out.append(self.transitions(ident))
            elif isinstance(part, str):
                out.append(part)
            else:
                out.append(self.render(part))
        return f'<{kind} id="{xml_escape(ident)}">' + "".join(out) + f"</{kind}>\n"

    def transitions(self, source):
        rng = self.rng
        out = []
        targets = [s for s, k in self.states]
        for _ in range(rng.randint(0, 3)):
            attributes = []
            if rng.random() < 0.85:
                names = " ".join(rand_event(rng, self.events) for _ in range(rng.randint(1, 2)))
                attributes.append(f'event="{xml_escape(names)}"')
            if rng.random() < 0.8 or not attributes:
                attributes.append(f'target="{xml_escape(rng.choice(targets))}"')
                if rng.random() < 0.2:
                    attributes.append('type="internal"')
            if rng.random() < 0.3:
                other = rng.choice(targets)
                neg = "!" if rng.random() < 0.5 else ""
                attributes.append(f"cond=\"{neg}In('{xml_escape(other)}')\"")
            if "event" not in attributes[0] and "cond" not in " ".join(attributes):
                # an eventless transition without a guard loops forever often: guard it
                attributes.append(f"cond=\"In('{xml_escape(rng.choice(targets))}')\"")
            out.append(f"<transition {' '.join(attributes)}>{self.content(0)}</transition>")
        return "".join(out)

    def document(self):
        rng = self.rng
        budget = [rng.randint(1, 14)]
        tops = [self.state(1, budget) for _ in range(rng.randint(1, 3))]
        name = xml_escape(rand_text(rng, TEXT_ALPHABET, 0, 8))
        text = "".join(self.render(node) for node in tops)
        return ('<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" '
                f'name="{name}">\n{text}</scxml>\n')


def run(command, timeout=900, **kwargs):
    return subprocess.run(command, capture_output=True, timeout=timeout, **kwargs)


def compilers():
    found = ["gcc"] if shutil.which("gcc") else []
    for clang in ["/opt/swift/usr/bin/clang", "clang"]:
        if shutil.which(clang):
            found.append(clang)
            break
    return found


def build_core(work, cc):
    out = os.path.join(work, "core-" + os.path.basename(cc))
    os.makedirs(out, exist_ok=True)
    objects = []
    for name in sorted(os.listdir(os.path.join(REPO, "CStateCore"))):
        if name.startswith("sc_") and name.endswith(".c"):
            obj = os.path.join(out, name[:-2] + ".o")
            result = run([cc] + FLAGS + ["-O1", "-I", os.path.join(REPO, "CStateCore/include"), "-c",
                                         os.path.join(REPO, "CStateCore", name), "-o", obj])
            if result.returncode != 0:
                sys.exit(f"{cc} cannot build the core: {result.stderr.decode(errors='replace')[:500]}")
            objects.append(obj)
    return objects


def one_case(rng, tool, work, cores, number, trace_timeout):
    """(ok, message, folder) for one random chart."""
    with_script = rng.random() < 0.2
    chart = Chart(rng, with_script)
    text = chart.document()
    folder = os.path.join(work, f"case{number}")
    path_parts = [rng.choice(HOSTILE_FOLDERS) for _ in range(rng.randint(0, 3))]
    path_parts = [p for p in path_parts if p not in ("/", "..", ".")] or ["plain"]
    doc_folder = os.path.join(folder, *[p.replace("/", "_") for p in path_parts])
    os.makedirs(doc_folder, exist_ok=True)
    base = rng.choice(HOSTILE_NAMES) if rng.random() < 0.6 else rand_id(rng, set())
    document = os.path.join(doc_folder, base.replace("/", "_") + ".scxml")
    with open(document, "w", encoding="utf-8") as f:
        f.write(text)
    out = os.path.join(folder, "out")
    generated = run([tool, "generate", "c", document, "-o", out, "--trace-main"])
    if generated.returncode not in (0, 2) or generated.returncode < 0:
        return False, f"generate exited {generated.returncode}: {generated.stderr.decode(errors='replace')[:300]}", folder
    if generated.returncode == 2:
        # Warnings may come first; a path may hold U+2028, which str.splitlines() would split.
        lines = generated.stderr.decode(errors="replace").split("\n")
        if not any(": error: " in line for line in lines):
            return False, f"generate refused without an error line: {lines[:2]}", folder
        return True, "refused", folder
    sources = sorted(os.path.join(out, n) for n in os.listdir(out) if n.endswith(".c"))
    headers = [os.path.join(out, n) for n in os.listdir(out) if n.endswith(".h")]
    for header in headers:
        code = run(["gcc", "-fpreprocessed", "-dD", "-E", "-P", header])
        stripped = code.stdout.decode(errors="replace")
        for marker in ["injected", "INJECTED_MACRO", "$(id)", "`id`"]:
            if marker in stripped and marker not in text:
                return False, f"{os.path.basename(header)}: '{marker}' from the path outside a comment", folder
    events_pool = chart.events + ["unknown.event", "x"]
    lines = []
    for _ in range(rng.randint(0, 12)):
        event = rng.choice(events_pool)
        lines.append(event if rng.random() < 0.8 else f"  {event} {{\"k\": 1}}")
    events = ("\n".join(lines) + "\n").encode()
    with open(os.path.join(folder, "events.txt"), "wb") as f:
        f.write(events)
    expected = None
    if not chart.script_used:
        try:
            traced = run([tool, "trace", document, "--timeout", str(trace_timeout)], input=events,
                         timeout=3 * trace_timeout + 30)
        except subprocess.TimeoutExpired:
            return True, "slow", folder
        if traced.returncode == 1 and f"trace: the timeout of {trace_timeout} seconds passed".encode() in traced.stderr:
            return True, "slow", folder  # runaway work a debug build did not finish: nothing to compare
        if traced.returncode != 0:
            return False, f"statechart trace exited {traced.returncode}: {traced.stderr.decode(errors='replace')[:300]}", folder
        expected = traced.stdout
    for cc, core in cores.items():
        binary = os.path.join(out, "trace-" + os.path.basename(cc))
        built = run([cc] + FLAGS + ["-O1", "-I", os.path.join(REPO, "CStateCore/include")] + sources + core + ["-o", binary])
        if built.returncode != 0:
            return False, f"{cc}: {built.stderr.decode(errors='replace')[:600]}", folder
        if expected is None:
            continue
        try:
            actual = run([binary], input=events, timeout=max(60, 10 * trace_timeout))
        except subprocess.TimeoutExpired:
            return True, "slow", folder
        if actual.returncode == 4:
            continue  # the chart kept sending events to itself: the documented difference
        if actual.stdout != expected:
            with open(os.path.join(folder, "expected.txt"), "wb") as f:
                f.write(expected)
            with open(os.path.join(folder, "actual.txt"), "wb") as f:
                f.write(actual.stdout)
            return False, f"{cc} build's trace (actual.txt) differs from statechart trace (expected.txt)", folder
    return True, "ok", folder


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    parser.add_argument("--seconds", type=float, default=0)
    parser.add_argument("--iterations", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--trace-timeout", type=int, default=100,
                        help="statechart trace's --timeout per input line (a chart past it is not compared)")
    parser.add_argument("--keep", default=os.path.join(REPO, ".build-fuzz", "codegen-findings"))
    args = parser.parse_args()
    if not args.seconds and not args.iterations:
        args.iterations = 50
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="fuzz-codegen-")
    passed = failed = refused = slow = 0
    started = time.monotonic()
    try:
        cores = {cc: build_core(work, cc) for cc in compilers()}
        number = 0
        while True:
            if args.iterations and number >= args.iterations:
                break
            if args.seconds and time.monotonic() - started >= args.seconds:
                break
            number += 1
            ok, message, folder = one_case(rng, os.path.abspath(args.tool), work, cores, number, args.trace_timeout)
            if ok:
                passed += 1
                refused += message == "refused"
                slow += message == "slow"
                shutil.rmtree(folder, ignore_errors=True)
            else:
                failed += 1
                os.makedirs(args.keep, exist_ok=True)
                kept = os.path.join(args.keep, f"seed{args.seed}-case{number}")
                shutil.rmtree(kept, ignore_errors=True)
                shutil.copytree(folder, kept, symlinks=True)
                first = message.splitlines()[0] if message else ""
                print(f"FAIL case {number} (seed {args.seed}): {first} (kept in {kept})")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    elapsed = time.monotonic() - started
    print(f"codegen fuzz: {passed + failed} charts in {elapsed:.0f} s, {refused} refused by the generator, "
          f"{slow} not compared (past statechart trace's {args.trace_timeout} s per-line timeout)")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
