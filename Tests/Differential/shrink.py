#!/usr/bin/env python3
"""Shrinks a chart and its events while the generated C and the Swift engine still disagree.

    shrink.py CHART.scxml EVENTS [-o DIR] [--tool STATECHART] [--cc CC]

Writes DIR/min.scxml and DIR/min.events (default: next to CHART). Greedy, in passes until
nothing more can go: input lines; then, for every element from the root down, its children in
halves, quarters, ... down to one at a time (a state goes with its whole subtree); then the
attributes that can be dropped (cond, initial, type) and single event descriptors and targets.
A candidate counts only if `statechart generate c` accepts it (so it is still valid), both
programs finish, and their standard output or <log> lines still differ.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
NS = 'http://www.w3.org/2005/07/scxml'
ET.register_namespace('', NS)


def log_lines(stderr):
    return [line for line in stderr.splitlines() if line.startswith(b'log: ')]


class Checker:
    """Answers "do the engines still disagree on this chart and these events?"."""

    def __init__(self, tool, cc):
        self.tool, self.cc = tool, cc
        self.work = tempfile.mkdtemp(prefix='shrink-')
        self.tries = 0
        core = os.path.join(self.work, 'core')
        os.makedirs(core)
        sources = [os.path.join(ROOT, 'CStateCore', f) for f in sorted(os.listdir(os.path.join(ROOT, 'CStateCore')))
                   if f.endswith('.c')]
        subprocess.run([cc, '-std=c11', '-O1', '-I', os.path.join(ROOT, 'CStateCore/include'), '-c', *sources],
                       cwd=core, check=True, capture_output=True)
        self.core = [os.path.join(core, f) for f in sorted(os.listdir(core))]

    def close(self):
        shutil.rmtree(self.work, ignore_errors=True)

    def disagrees(self, chart_text, events):
        self.tries += 1
        case = os.path.join(self.work, f'try{self.tries}')
        os.makedirs(case)
        try:
            chart = os.path.join(case, 'chart.scxml')
            event_file = os.path.join(case, 'events')
            with open(chart, 'w', encoding='utf-8') as f:
                f.write(chart_text)
            with open(event_file, 'w', encoding='utf-8') as f:
                f.write(''.join(line + '\n' for line in events))
            gen = os.path.join(case, 'gen')
            if subprocess.run([self.tool, 'generate', 'c', chart, '-o', gen, '--name', 'chart', '--trace-main'],
                              capture_output=True).returncode != 0:
                return False
            program = os.path.join(case, 'prog')
            sources = [os.path.join(gen, f) for f in sorted(os.listdir(gen)) if f.endswith('.c')]
            if subprocess.run([self.cc, '-std=c11', '-I', os.path.join(ROOT, 'CStateCore/include'), *sources,
                               *self.core, '-o', program], capture_output=True).returncode != 0:
                return False
            try:
                with open(event_file, 'rb') as f:
                    swift = subprocess.run([self.tool, 'trace', chart], stdin=f, capture_output=True, timeout=60)
                with open(event_file, 'rb') as f:
                    c = subprocess.run([program], stdin=f, capture_output=True, timeout=60)
            except subprocess.TimeoutExpired:
                return False
            if swift.returncode != 0 or c.returncode != 0:
                return False
            return swift.stdout != c.stdout or log_lines(swift.stderr) != log_lines(c.stderr)
        finally:
            shutil.rmtree(case, ignore_errors=True)


def chunks_removed(items, keep_if):
    """Greedy ddmin: removes chunks of `items` (halves, then quarters, ... then single items)
    while `keep_if(remaining)` holds; returns what is left."""
    size = max(1, len(items) // 2)
    while True:
        start = 0
        while start < len(items):
            candidate = items[:start] + items[start + size:]
            if len(candidate) < len(items) and keep_if(candidate):
                items = candidate
            else:
                start += size
        if size == 1:
            return items
        size = max(1, size // 2)


def text_of(root):
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding='unicode') + '\n'


def shrink(chart_text, events, checker):
    """(chart text, event lines), smaller, on which the engines still disagree."""
    assert checker.disagrees(chart_text, events), 'the engines agree on the case given'
    root = ET.fromstring(chart_text)
    changed = True
    while changed:
        changed = False
        smaller = chunks_removed(events, lambda candidate: checker.disagrees(text_of(root), candidate))
        changed |= smaller != events
        events = smaller
        # Elements: every parent's children, parents first (so whole subtrees go at once).
        for parent in list(root.iter()):
            children = list(parent)
            if not children:
                continue

            def keep(candidate, parent=parent, children=children):
                for child in children:
                    parent.remove(child)
                parent.extend(candidate)
                ok = checker.disagrees(text_of(root), events)
                for child in list(parent):
                    parent.remove(child)
                parent.extend(children)
                return ok
            kept = chunks_removed(children, keep)
            if len(kept) < len(children):
                for child in children:
                    parent.remove(child)
                parent.extend(kept)
                changed = True
        # Attributes, and single words of the lists in event and target.
        for element in list(root.iter()):
            for name in ('cond', 'initial', 'type', 'label', 'event', 'target'):
                value = element.get(name)
                if value is None:
                    continue
                words = value.split()
                options = [None] + ([' '.join(words[:i] + words[i + 1:]) for i in range(len(words))]
                                    if name in ('event', 'target', 'initial') and len(words) > 1 else [])
                for option in options:
                    if option is None:
                        del element.attrib[name]
                    else:
                        element.set(name, option)
                    if checker.disagrees(text_of(root), events):
                        changed = True
                        break
                    element.set(name, value)
    for element in root.iter():
        element.text = element.text if element.text and element.text.strip() else None
        element.tail = None
    ET.indent(root)
    return text_of(root), events


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('chart')
    parser.add_argument('events')
    parser.add_argument('-o', '--output')
    parser.add_argument('--tool')
    parser.add_argument('--cc', default='cc')
    args = parser.parse_args()
    tool = args.tool or os.path.join(subprocess.run(['swift', 'build', '--show-bin-path'], cwd=ROOT, check=True,
                                                    capture_output=True, text=True).stdout.strip(), 'statechart')
    with open(args.chart, encoding='utf-8') as f:
        chart_text = f.read()
    with open(args.events, encoding='utf-8') as f:
        events = f.read().splitlines()
    checker = Checker(tool, args.cc)
    try:
        text, smaller = shrink(chart_text, events, checker)
    finally:
        checker.close()
    out = args.output or os.path.dirname(os.path.abspath(args.chart))
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, 'min.scxml'), 'w', encoding='utf-8') as f:
        f.write(text)
    with open(os.path.join(out, 'min.events'), 'w', encoding='utf-8') as f:
        f.write(''.join(line + '\n' for line in smaller))
    print(f'{os.path.join(out, "min.scxml")} ({len(text.splitlines())} lines), '
          f'{os.path.join(out, "min.events")} ({len(smaller)} events) after {checker.tries} tries')


if __name__ == '__main__':
    main()
