#!/usr/bin/env python3
"""Writes the documents docs/SECURITY.md measures the bounds of issue 28 on, into a folder:

  bad-targets.scxml     ~390 KB: 4,200 states, each with a transition to an id that does not exist
  wide-bad.scxml        60,000 states, every one with a transition to an id that does not exist
  eventless-chain.scxml a 20,000-state eventless chain whose last state sends itself an event that
                        starts the chain again: 20,001 microsteps per macrostep, 10,000 macrosteps a line
  verbose-runaway.scxml a 300-region parallel state whose regions flip eventlessly forever
  deep-1600.scxml       states nested 1,600 deep, each with a transition to the outermost one
  deep-3000.scxml       states nested 3,000 deep (SCXML export's indentation)

usage: scripts/hostile-documents.py DIR
"""
import os
import sys

HEAD = '<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">\n'


def write(folder, name, text):
    with open(os.path.join(folder, name), "w") as f:
        f.write(text)


def main(folder):
    os.makedirs(folder, exist_ok=True)
    write(folder, "bad-targets.scxml", HEAD + "".join(
        f'<state id="state_number_{i:05d}"><transition event="go" target="missing_target_{i:05d}"/></state>\n'
        for i in range(4200)) + "</scxml>\n")
    write(folder, "wide-bad.scxml", HEAD + "".join(
        f'<state id="s{i}"><transition event="e" target="m{i}"/></state>\n' for i in range(60000)) + "</scxml>\n")
    n = 20000
    chain = [f'<state id="c{i}"><transition target="c{i + 1}"/></state>\n' for i in range(n - 1)]
    chain += [f'<state id="c{n - 1}"><transition target="end"/></state>\n',
              '<state id="end"><onentry><send event="again"/></onentry><transition event="again" target="c0"/></state>\n']
    write(folder, "eventless-chain.scxml", HEAD + '<state id="top" initial="c0">' + "".join(chain) + "</state>\n</scxml>\n")
    regions = "".join(
        f'<state id="r{i}"><state id="a{i}"><transition target="b{i}"/></state>'
        f'<state id="b{i}"><transition target="a{i}"/></state></state>\n' for i in range(300))
    write(folder, "verbose-runaway.scxml", HEAD + '<parallel id="p">\n' + regions + "</parallel>\n</scxml>\n")
    for depth, name in ((1600, "deep-1600.scxml"), (3000, "deep-3000.scxml")):
        opening = "".join(f'<state id="d{i}"><transition event="go" target="d0"/>' for i in range(depth))
        write(folder, name, HEAD + opening + "</state>" * depth + "\n</scxml>\n")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
