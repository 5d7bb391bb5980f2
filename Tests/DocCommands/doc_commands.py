#!/usr/bin/env python3
"""Runs the shell commands of README.md and of every DocC article (Sources/*/*.docc/**/*.md)
and compares what they print with what the text shows.

Every ```sh block (also bash, shell, console) must be marked by an HTML comment on the line
before it, so that no command escapes the test:

    <!-- doc-test -->                          run every command of the block
    <!-- doc-test: not CMD (REASON) -->        run every command except CMD, which REASON says
                                               who runs instead (e.g. .ci/run runs scripts/test.sh)

In a block with lines starting with "$ ", those lines are the commands and the lines after each,
up to the next "$ " line, are exactly what it prints (standard output and standard error, as a
terminal shows them). In a block without "$ " lines every line is a command ("# ..." comments
allowed) whose output is not shown. Every command must exit 0.

The commands of one file run in order in one bash process, as a reader typing them would (an
`export PATH=...` holds for the commands after it), in the repository root, with HOME set to an
empty temporary folder (so `~/.local` is not the user's). Files the commands create in the
repository are removed afterwards; a command that changes a tracked file fails the test.

It also checks that the README's product table and `.product(name:package:)` lines name the
library products of Package.swift.

Usage: doc_commands.py [FILE...]   (default: README.md and every DocC article)
Prints "ok: FILE:LINE: COMMAND" or "FAIL: ..." per command, then "N passed, M failed".
"""
import difflib
import glob
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MARKER = re.compile(r"^<!-- doc-test(?:: not (?P<skip>.+?) \((?P<reason>.+)\))? -->$")
FENCE = re.compile(r"^```(sh|bash|shell|console)\s*$")


class Command:
    def __init__(self, path, line, text, expected):
        self.path, self.line, self.text, self.expected = path, line, text, expected


def commands_of(path):
    """The commands of a file's blocks, and the problems with unmarked blocks."""
    lines = open(os.path.join(ROOT, path), encoding="utf-8").read().split("\n")
    commands, problems = [], []
    i = 0
    while i < len(lines):
        if not FENCE.match(lines[i]):
            i += 1
            continue
        start = i
        end = start + 1
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        body = lines[start + 1:end]
        before = start - 1
        while before >= 0 and lines[before].strip() == "":
            before -= 1
        marker = MARKER.match(lines[before].strip()) if before >= 0 else None
        if marker is None:
            problems.append(f"{path}:{start + 1}: a command block without a <!-- doc-test --> marker")
        else:
            skip = marker.group("skip")
            if any(l.startswith("$ ") for l in body):
                current = None
                for offset, l in enumerate(body):
                    if l.startswith("$ "):
                        current = Command(path, start + 2 + offset, l[2:], [])
                        commands.append(current)
                    elif current is None:
                        problems.append(f"{path}:{start + 2 + offset}: output before the first '$ ' command")
                    else:
                        current.expected.append(l)
            else:
                pending = ""
                for offset, l in enumerate(body):
                    if l.strip() == "" or l.lstrip().startswith("#"):
                        continue
                    if l.endswith("\\"):
                        pending += l[:-1] + " "
                        continue
                    text = pending + l
                    pending = ""
                    if skip is not None and text.split("#")[0].strip() == skip:
                        continue
                    commands.append(Command(path, start + 2 + offset, text, None))
            if skip is not None and not any(skip in l for l in body):
                problems.append(f"{path}:{before + 1}: the marker skips '{skip}', which the block does not hold")
        i = end + 1
    return commands, problems


def repository_files():
    """Untracked (not ignored) files and the tracked files' state, to find what commands wrote."""
    untracked = subprocess.run(["git", "ls-files", "--others", "--exclude-standard", "-z"], cwd=ROOT,
                               capture_output=True, check=True).stdout.split(b"\0")
    changed = subprocess.run(["git", "diff", "--name-only", "-z"], cwd=ROOT,
                             capture_output=True, check=True).stdout.split(b"\0")
    return {f.decode() for f in untracked if f}, {f.decode() for f in changed if f}


def run_file(path, commands, work):
    """Runs a file's commands in one bash process; returns (status, output) per command."""
    script = ["cd " + sh_quote(ROOT)]
    for n, c in enumerate(commands):
        script.append("{ " + c.text + "\n} > " + sh_quote(f"{work}/{n}.out") + " 2>&1 < /dev/null; echo $? > "
                      + sh_quote(f"{work}/{n}.rc"))
    home = os.path.join(work, "home")
    os.makedirs(home, exist_ok=True)
    env = dict(os.environ, HOME=home)
    subprocess.run(["bash", "-c", "\n".join(script)], env=env, stdin=subprocess.DEVNULL)
    results = []
    for n in range(len(commands)):
        try:
            status = int(open(f"{work}/{n}.rc").read().strip())
            output = open(f"{work}/{n}.out", encoding="utf-8", errors="replace").read()
        except (OSError, ValueError):
            status, output = -1, "(the command did not run)"
        results.append((status, output))
    return results


def sh_quote(text):
    return "'" + text.replace("'", "'\\''") + "'"


def check_products():
    """The README's product table and `.product(...)` lines name the package's library products."""
    problems = []
    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    manifest = open(os.path.join(ROOT, "Package.swift"), encoding="utf-8").read()
    libraries = set(re.findall(r'\.library\(name: "([^"]+)"', manifest))
    used = set(re.findall(r'\.product\(name: "([^"]+)", package: "statechart"\)', readme))
    listed = set(re.findall(r"^\| `([A-Za-z]+)` \|", readme, re.M)) & (libraries | used)
    for name in sorted(used - libraries):
        problems.append(f"README.md: .product(name: \"{name}\") is not a library product of Package.swift")
    for name in sorted(libraries - listed):
        problems.append(f"README.md: the product table does not list the library product {name}")
    return problems


def main(argv):
    files = argv or ["README.md"] + sorted(
        os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "Sources/*/*.docc/**/*.md"), recursive=True))
    passed = failed = 0
    untracked_before, changed_before = repository_files()
    if not argv or "README.md" in argv:
        for problem in check_products():
            print("FAIL:", problem)
            failed += 1
        passed += 0 if failed else 1
    for path in files:
        commands, problems = commands_of(path)
        for problem in problems:
            print("FAIL:", problem)
            failed += 1
        if not commands:
            continue
        with tempfile.TemporaryDirectory() as work:
            results = run_file(path, commands, work)
        for c, (status, output) in zip(commands, results):
            where = f"{c.path}:{c.line}: {c.text}"
            lines = output.rstrip("\n").split("\n") if output.strip() else []
            if status != 0:
                print(f"FAIL: {where}\n  exit status {status}; it printed:")
                print("\n".join("  | " + l for l in output.rstrip("\n").split("\n")[-30:]))
                failed += 1
            elif c.expected is not None and lines != c.expected:
                print(f"FAIL: {where}\n  printed something else than the text shows (- text, + printed):")
                for l in difflib.unified_diff(c.expected, lines, lineterm="", n=1):
                    print("  " + l)
                failed += 1
            else:
                print(f"ok: {where}")
                passed += 1
    untracked_after, changed_after = repository_files()
    for f in sorted(untracked_after - untracked_before):
        os.remove(os.path.join(ROOT, f))
        parent = os.path.dirname(os.path.join(ROOT, f))
        while parent != ROOT and not os.listdir(parent):
            os.rmdir(parent)
            parent = os.path.dirname(parent)
    for f in sorted(changed_after - changed_before):
        print(f"FAIL: the commands changed the tracked file {f}")
        failed += 1
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
