#!/usr/bin/env python3
"""Random SCXML charts for the differential test (null datamodel), one per integer seed.

    chartgen.py SEED [-o DIR] [--exclude FEATURE,...]
        writes DIR/chart<SEED>.scxml and DIR/chart<SEED>.events

The same seed always gives the same chart and events (random.Random(seed), no other input),
so a seed printed by a failing run is all it takes to get the case back.

A chart has nested compound states, <parallel> regions, shallow and deep <history> (each with
its default transition, which SCXML requires), <final> states (so done.state.ID events, and
top-level ones that halt the machine), eventless and event transitions (external and
type="internal", targetless, one target, several targets in orthogonal regions, history
targets), <initial> elements and `initial` attributes, and executable content (<raise>, <log>,
<if>/<elseif>/<else>, <send> to itself without delay and to #_internal, bursts of 60-80 events)
in <onentry>, <onexit>, transitions, <initial> and <history> transitions. Conditions are
In('id') combined with !, &&, ||, parentheses, true and false (the null datamodel's documented
extension). Event names have dots; descriptors use prefixes, `.*` and `*`. Every chart
terminates (see the note on event classes below).

Every document is meant to be valid: the validator refusing one is a finding, not noise.
"""

import argparse
import os
import random
from xml.sax.saxutils import quoteattr

# Every generated macrostep terminates, and so does every input line's chain of sent events
# (an event a chart sends to itself is processed after the line's report and before the next
# line is read, with no limit to stop a loop). The event names come in four classes:
#
#   raised   a, b, c, c.d, c.d.e, c.f (and the engine's done.state.ID): internal events
#   late     late.a, late.b: sent by <onentry> and <onexit> (external events)
#   sent     go.now, go.later, x: only ever external (sent by input transitions, or the input)
#   input    in.a, in.b, in.b.c: only ever in the input
#
# A transition whose descriptors can match a raised or late name, or that has no event, is
# "internal": it never sends, raises nothing when it has no target, and its targets are
# "forward": after the source's whole subtree in document order, not history states, and with
# no <parallel> as the nearest common ancestor of the source and a target. Taking such
# transitions makes the sorted list of active atomic state indices grow lexicographically (the
# exited block, a range of the domain, is replaced by states all after the source), so only
# finitely many can follow each other. <send> of raised and sent names is only in transitions
# whose descriptors match input names alone, so what they send never sends again. Late names
# are sent on entry and exit, which only targetful transitions cause, and only internal
# transitions take late events: a late event's macrostep that sends again has moved forward.
# Everything else (history targets, backward and internal-type transitions, re-entering
# parallels) happens on sent and input events. (The one exception is deliberate: see "spin".)
RAISED_EVENTS = ["a", "b", "c", "c.d", "c.d.e", "c.f"]
LATE_EVENTS = ["late.a", "late.b"]
SENT_EVENTS = ["go.now", "go.later", "x"]
INPUT_EVENTS = ["in.a", "in.b", "in.b.c"]
# Descriptors by the classes they can match (done.state.ID is added per chart).
RAISED_DESCRIPTORS = ["a", "b", "c", "c.d", "c.d.e", "c.f", "c.*", "c.d.*", "*", "done", "done.state", "done.*",
                      "late", "late.a", "late.*"]
SENT_DESCRIPTORS = ["go", "go.now", "go.later", "go.*", "x"]
INPUT_DESCRIPTORS = ["in.a", "in.b", "in.b.c", "in", "in.*", "in.b.*"]
# Input events the chart never mentions, or that only a prefix descriptor matches.
FOREIGN_EVENTS = ["zz", "cc", "a.b", "c.d.e.f", "go.now.please", "done",
                  # Names the JSON output has to escape, and lines the trace contract splits
                  # oddly: a tab, a trailing space, two spaces before the data, a control byte.
                  'we"ird', 'back\\slash', '\u00e9t\u00e9.a', 'a\tb', 'in.a ', 'x  {"k":1}', '\u0001ctl']


class Node:
    """One element of the state tree: 'scxml', 'state', 'parallel', 'final' or 'history'."""

    def __init__(self, kind, ident, parent):
        self.kind = kind
        self.id = ident
        self.parent = parent
        self.children = []
        self.transitions = []   # list of Transition
        self.onentry = []       # list of blocks (each a list of content items)
        self.onexit = []
        self.initial_attr = None     # list of ids
        self.initial_elem = None     # Transition (targets + content)
        self.history_type = None     # 'shallow' / 'deep'
        self.history_default = None  # Transition or None

    def state_children(self):
        return [c for c in self.children if c.kind != 'history']

    def descendants(self):
        for child in self.children:
            yield child
            yield from child.descendants()

    def ancestors(self):
        node = self.parent
        while node is not None:
            yield node
            node = node.parent


class Transition:
    def __init__(self, event=None, cond=None, targets=None, internal=False, content=None):
        self.event = event
        self.cond = cond
        self.targets = targets or []
        self.internal = internal
        self.content = content or []


# Features a run can leave out (`--exclude`), to keep a known engine bug out of a CI batch
# visibly, or to narrow down a mismatch.
FEATURES = ['operators', 'history', 'parallel', 'multi-target', 'internal', 'top-final', 'send',
            'raise', 'log', 'if', 'eventless', 'done-events', 'foreign-events', 'event-data', 'burst',
            'runaway']


class Generator:
    def __init__(self, seed, exclude=frozenset()):
        unknown = set(exclude) - set(FEATURES)
        if unknown:
            raise ValueError(f"unknown feature(s) {sorted(unknown)}; known: {', '.join(FEATURES)}")
        self.exclude = frozenset(exclude)
        self.rng = random.Random(seed)
        self.counters = {}
        self.nodes = []

    def on(self, feature):
        return feature not in self.exclude

    def chance(self, p):
        return self.rng.random() < p

    def new_id(self, prefix):
        n = self.counters.get(prefix, 0) + 1
        self.counters[prefix] = n
        return f"{prefix}{n}"

    # MARK: - The state tree

    def build_tree(self):
        # A few charts raise or send events in bursts of 60 to 80 (then one more, which a
        # transition waits for): queue capacities show, which must be the same in both engines.
        self.bursty = self.chance(0.06) and self.on('burst')   # the same draws with or without
        self.max_states = self.rng.randint(6, 24)
        self.max_depth = self.rng.randint(3, 5)
        root = Node('scxml', None, None)
        for _ in range(self.rng.randint(2, 4)):
            self.add_state(root, 1, region=False)
        # A top-level final halts the machine; only some charts have one.
        if self.on('top-final') and self.chance(0.2):
            root.children.append(Node('final', self.new_id('f'), root))
        self.rng.shuffle(root.children)
        return root

    def state_count(self):
        return sum(self.counters.values())

    def add_state(self, parent, depth, region):
        """Adds one child state to `parent`; a <parallel>'s regions are never <final>."""
        room = self.state_count() < self.max_states and depth < self.max_depth
        roll = self.rng.random()
        if room and roll < 0.30:
            kind = 'state+'     # compound
        elif room and roll < 0.45 and self.on('parallel'):
            kind = 'parallel'
        elif not region and parent.kind == 'state' and roll < 0.60:
            kind = 'final'
        else:
            kind = 'state'
        if kind == 'final':
            node = Node('final', self.new_id('f'), parent)
        elif kind == 'parallel':
            node = Node('parallel', self.new_id('p'), parent)
        else:
            node = Node('state', self.new_id('s'), parent)
        parent.children.append(node)
        if kind == 'state+':
            for _ in range(self.rng.randint(2, 3)):
                self.add_state(node, depth + 1, region=False)
            # A compound state often ends in a final child, so done.state.ID happens.
            if self.chance(0.5):
                node.children.append(Node('final', self.new_id('f'), node))
        elif kind == 'parallel':
            for _ in range(self.rng.randint(1, 3)):
                self.add_state(node, depth + 1, region=True)
        if kind in ('state+', 'parallel') and self.on('history'):
            for _ in range(self.rng.choice([0, 0, 1, 1, 2])):
                history = Node('history', self.new_id('h'), node)
                history.history_type = self.rng.choice(['shallow', 'deep'])
                node.children.insert(self.rng.randint(0, len(node.children)), history)
        return node

    # MARK: - Targets

    def legal_set(self, container):
        """One or more non-history states inside `container` that can be active together
        (several only across the regions of a <parallel> inside it)."""
        # Not a top-level <final>: a chart that halts at once has nothing left to compare.
        inside = [d for d in container.descendants() if d.kind != 'history' and d.parent.kind != 'scxml' or d.kind in ('state', 'parallel')]
        parallels = [d for d in ([container] + inside) if d.kind == 'parallel' and len(d.state_children()) > 1]
        if parallels and self.on('multi-target') and self.chance(0.3):
            p = self.rng.choice(parallels)
            regions = self.rng.sample(p.state_children(), self.rng.randint(2, len(p.state_children())))
            picks = []
            for region in regions:
                options = [region] + [d for d in region.descendants() if d.kind != 'history']
                picks.append(self.rng.choice(options))
            return [n.id for n in picks]
        return [self.rng.choice(inside).id]

    def transition_targets(self, root):
        roll = self.rng.random()
        if roll < 0.15:
            return []
        everything = [n for n in self.nodes]
        histories = [n for n in everything if n.kind == 'history']
        if histories and roll < 0.27:
            return [self.rng.choice(histories).id]
        if roll < 0.40 and self.on('multi-target'):
            return self.legal_set(root)
        halts = [n for n in everything if n.kind == 'final' and n.parent.kind == 'scxml']
        if halts and self.chance(0.2):
            return [halts[0].id]
        return [self.rng.choice([n for n in everything if n.kind != 'history' and n not in halts]).id]

    # MARK: - Conditions

    def condition(self, depth=0):
        """Text, precedence (0 ||, 1 &&, 2 unary/atom)."""
        roll = self.rng.random()
        if depth >= 3 or roll < 0.45 or not self.on('operators'):
            r = self.rng.random()
            if r < 0.82:
                pool = self.nodes
                # Half the time a state that is likely active: the one whose content or
                # transition this is, or one of its ancestors.
                near = [n for n in [self.context] + list(self.context.ancestors()) if n.kind != 'scxml']
                if near and self.chance(0.5):
                    pool = near
                # An In() of a state the chart does not have is a load error (every datamodel
                # refuses it), so this draw, kept for the seeds' sake, is a plain false.
                if self.chance(0.03):
                    return 'false', 2
                ident = self.rng.choice(pool).id
                return self.rng.choice([f"In('{ident}')"] * 8 + [f'In("{ident}")', f"In( '{ident}' )"]), 2
            return ('true' if self.chance(0.5) else 'false'), 2
        if roll < 0.62:
            text, prec = self.condition(depth + 1)
            if prec < 2 or self.chance(0.15):
                text = f"({text})"
            return self.rng.choice(['!', '!', '! ']) + text, 2
        op, prec = ('&&', 1) if self.chance(0.5) else ('||', 0)
        left, lp = self.condition(depth + 1)
        right, rp = self.condition(depth + 1)
        # Parentheses only where precedence needs them (so `a || b && c` is tested as written),
        # and sometimes redundant ones.
        if lp < prec or self.chance(0.2):
            left = f"({left})"
        if rp <= prec and not (rp == prec and self.chance(0.5)) or self.chance(0.2):
            right = f"({right})"
        space = self.rng.choice([' ', ' ', ''])
        return f"{left}{space}{op}{space}{right}", prec

    def maybe_condition(self, p):
        return self.condition()[0] if self.chance(p) else None

    # MARK: - Executable content

    def raised_name(self):
        if self.done_names and self.on('done-events') and self.chance(0.1):
            return self.rng.choice(self.done_names)
        return self.rng.choice(RAISED_EVENTS)

    def content(self, depth=0, most=3, sends=None, raises=True):
        """Executable content; `sends` is the list of names it may <send>, if any."""
        items = []
        for _ in range(self.rng.randint(0, most)):
            roll = self.rng.random()
            if self.bursty and self.chance(0.15) and (raises and self.on('raise') or sends and self.on('send')):
                kind = 'raise' if raises and self.on('raise') and not (sends and self.chance(0.5)) else 'send'
                name, last = self.rng.sample(RAISED_EVENTS if kind == 'raise' else sends, 2)
                items += [(kind, name)] * self.rng.randint(60, 80) + [(kind, last)]
            elif roll < 0.40:
                if raises and self.on('raise'):
                    # <send target="#_internal"> queues an internal event, as <raise> does.
                    kind = 'send-internal' if self.on('send') and self.chance(0.2) else 'raise'
                    items.append((kind, self.raised_name()))
            elif roll < 0.60:
                if self.on('log'):
                    label = self.rng.choice([None, 'L', 'trace'])
                    # Mostly a string naming the place; some conditions (evaluated when the
                    # content runs: true or false) and other literals.
                    roll = self.rng.random()
                    if label and roll < 0.1:
                        expr = None
                    elif roll < 0.7:
                        expr = repr(self.new_id('m'))
                    elif roll < 0.9:
                        expr = self.condition()[0]
                    else:
                        expr = self.rng.choice(['3', '-1.5', '1e21', '0.1', 'true', 'false', 'null', '"dq"'])
                    items.append(('log', label, expr))
            elif roll < 0.75:
                if sends and self.on('send'):
                    items.append(('send', self.rng.choice(sends)))
            elif depth < 2 and self.on('if'):
                branches = [(self.condition()[0], self.content(depth + 1, 2, sends, raises))]
                for _ in range(self.rng.choice([0, 0, 1, 2])):
                    branches.append((self.condition()[0], self.content(depth + 1, 2, sends, raises)))
                otherwise = self.content(depth + 1, 2, sends, raises) if self.chance(0.5) else None
                items.append(('if', branches, otherwise))
        return items

    def block(self, p):
        """An <onentry> or <onexit>: it may send the late names (see the note on event classes)."""
        return [self.content(sends=LATE_EVENTS)] if self.chance(p) else []

    # MARK: - Transitions and initial states

    def decorate(self, root):
        self.nodes = [n for n in root.descendants()]
        self.index = {n: i + 1 for i, n in enumerate(self.nodes)}
        self.last = {}
        for n in reversed(self.nodes):
            self.last[n] = max([self.index[n]] + [self.last[c] for c in n.children])
        self.done_names = [f"done.state.{n.id}" for n in self.nodes if n.kind in ('state', 'parallel')
                           and n.state_children()]
        for node in self.nodes:
            self.context = node
            if node.kind == 'history':
                # SCXML 3.10.2: a <history> has exactly one default transition (the
                # validator refuses one without).
                parent = node.parent
                if node.history_type == 'shallow':
                    targets = [self.rng.choice(parent.state_children()).id]
                    if parent.kind == 'parallel' and len(parent.state_children()) > 1 and self.chance(0.3):
                        targets = [c.id for c in self.rng.sample(parent.state_children(), 2)]
                else:
                    targets = self.legal_set(parent)
                node.history_default = Transition(targets=targets, content=self.content(most=2))
                continue
            node.onentry = self.block(0.45)
            if self.chance(0.1):
                node.onentry += self.block(1.0)
            if node.kind == 'final':
                node.onexit = self.block(0.2)
                continue
            node.onexit = self.block(0.35)
            # An atomic state always has a way out on an input or sent event (internal
            # transitions only move forward, so without one a chart soon sits still).
            count = self.rng.choice([0, 1, 2, 2, 3, 3])
            if not node.state_children():
                node.transitions.append(self.transition(root, node, external=True))
                count -= 1
            for _ in range(count):
                node.transitions.append(self.transition(root, node))
            if node.kind == 'state' and node.state_children():
                roll = self.rng.random()
                if roll < 0.3:
                    node.initial_attr = self.legal_set(node)
                elif roll < 0.5:
                    node.initial_elem = Transition(targets=self.legal_set(node), content=self.content(most=2))
        self.context = root
        if self.chance(0.4):
            root.initial_attr = self.legal_set(root)
        # The one deliberate loop: in a few charts the top-level states answer the input event "spin" by
        # raising it again, for ever. Both engines must stop the macrostep at the same step
        # bound (100,000) in the same configuration and carry on with the next input line.
        self.spinning = self.chance(0.03) and self.on('runaway')
        if self.spinning:
            # On every top-level state, so it loops whenever the machine has not halted.
            for spinner in [n for n in root.children if n.kind in ('state', 'parallel')]:
                spinner.transitions.insert(self.rng.randint(0, len(spinner.transitions)),
                                           Transition('spin', None, [], False, [('raise', 'spin')]))

    def forward_targets(self, source):
        """Targets for an internal transition (see the note on event classes), or []."""
        def allowed(n):
            return n.kind != 'history' and self.index[n] > self.last[source] and self.lca(source, n).kind != 'parallel'
        candidates = [n for n in self.nodes if allowed(n) and not (n.kind == 'final' and n.parent.kind == 'scxml')]
        if not candidates:
            return []
        parallels = [n for n in candidates if n.kind == 'parallel' and len(n.state_children()) > 1]
        if parallels and self.on('multi-target') and self.chance(0.2):
            return self.legal_set(self.rng.choice(parallels))
        return [self.rng.choice(candidates).id]

    def lca(self, a, b):
        above_a = set(id(n) for n in a.ancestors())
        for n in b.ancestors():
            if id(n) in above_a:
                return n
        raise AssertionError('no common ancestor')

    def transition(self, root, source, external=False):
        roll = 0.5 if external else self.rng.random()
        if roll < 0.08 and self.on('eventless') and not external:
            targets = self.forward_targets(source)
            if targets:
                # Always a target: an eventless transition without one would be taken again
                # in every microstep.
                return Transition(None, self.maybe_condition(0.9), targets, False, self.content(most=2))
            roll = 1.0
        if roll < 0.65:
            pool = INPUT_DESCRIPTORS if self.chance(0.5) else INPUT_DESCRIPTORS + SENT_DESCRIPTORS
            event = ' '.join(self.rng.sample(pool, self.rng.choice([1, 1, 2])))
            sends = all(d in INPUT_DESCRIPTORS for d in event.split())
            targets = self.transition_targets(root)
            internal = bool(targets) and self.on('internal') and self.chance(0.3)
            # An atomic state's way out (`external`) is seldom guarded.
            return Transition(event, self.maybe_condition(0.1 if external else 0.35), targets, internal,
                              self.content(most=2, sends=RAISED_EVENTS + SENT_EVENTS if sends else None))
        descriptors = []
        for _ in range(self.rng.choice([1, 1, 1, 2])):
            if self.done_names and self.on('done-events') and self.chance(0.15):
                descriptors.append(self.rng.choice(self.done_names))
            else:
                descriptors.append(self.rng.choice(RAISED_DESCRIPTORS + SENT_DESCRIPTORS))
        targets = self.forward_targets(source) if self.chance(0.6) else []
        return Transition(' '.join(descriptors), self.maybe_condition(0.35), targets, False,
                          self.content(most=2, raises=bool(targets)))

    # MARK: - Events

    def events(self):
        # Mostly input and sent events (the ones that move a chart anywhere), then raised and
        # late names, done events, and names the chart does not know.
        pools = [(INPUT_EVENTS, 0.45), (SENT_EVENTS, 0.2), (RAISED_EVENTS + LATE_EVENTS, 0.15)]
        if self.on('done-events') and self.done_names:
            pools.append((self.done_names, 0.05))
        if self.on('foreign-events'):
            pools.append((FOREIGN_EVENTS, 0.15))
        spins = 1 if self.spinning else 0
        lines = []
        for _ in range(self.rng.randint(8, 24)):
            pool = self.rng.choices([p for p, _ in pools], weights=[w for _, w in pools])[0]
            name = self.rng.choice(pool)
            if self.on('event-data') and self.chance(0.08):
                # The last is not JSON: the event is sent without data.
                name += ' ' + self.rng.choice(['1', '"text"', '{"k": [1, 2]}', 'null', '{bad'])
            if self.on('event-data') and self.chance(0.04):
                lines.append(self.rng.choice(['', '  ']))   # blank lines are skipped
            lines.append(name)
        for _ in range(spins):
            lines.insert(self.rng.randint(0, len(lines)), 'spin')
        return lines


# MARK: - Writing

def write_content(items, indent, out):
    pad = '  ' * indent
    for item in items:
        kind = item[0]
        if kind == 'raise':
            out.append(f'{pad}<raise event={quoteattr(item[1])}/>')
        elif kind == 'send-internal':
            out.append(f'{pad}<send event={quoteattr(item[1])} target="#_internal"/>')
        elif kind == 'send':
            out.append(f'{pad}<send event={quoteattr(item[1])}/>')
        elif kind == 'log':
            label = f' label={quoteattr(item[1])}' if item[1] else ''
            expr = f' expr={quoteattr(item[2])}' if item[2] else ''
            out.append(f'{pad}<log{label}{expr}/>')
        elif kind == 'if':
            branches, otherwise = item[1], item[2]
            out.append(f'{pad}<if cond={quoteattr(branches[0][0])}>')
            write_content(branches[0][1], indent + 1, out)
            for cond, body in branches[1:]:
                out.append(f'{pad}  <elseif cond={quoteattr(cond)}/>')
                write_content(body, indent + 1, out)
            if otherwise is not None:
                out.append(f'{pad}  <else/>')
                write_content(otherwise, indent + 1, out)
            out.append(f'{pad}</if>')


def write_transition(t, indent, out, with_type=True):
    pad = '  ' * indent
    attrs = ''
    if t.event is not None:
        attrs += f' event={quoteattr(t.event)}'
    if t.cond is not None:
        attrs += f' cond={quoteattr(t.cond)}'
    if t.targets:
        attrs += f' target={quoteattr(" ".join(t.targets))}'
    if with_type and t.internal:
        attrs += ' type="internal"'
    if t.content:
        out.append(f'{pad}<transition{attrs}>')
        write_content(t.content, indent + 1, out)
        out.append(f'{pad}</transition>')
    else:
        out.append(f'{pad}<transition{attrs}/>')


def write_node(node, indent, out):
    pad = '  ' * indent
    attrs = f' id={quoteattr(node.id)}'
    if node.kind == 'history':
        attrs += f' type="{node.history_type}"'
    if node.initial_attr:
        attrs += f' initial={quoteattr(" ".join(node.initial_attr))}'
    body = []
    if node.initial_elem is not None:
        body.append(f'{pad}  <initial>')
        write_transition(node.initial_elem, indent + 2, body, with_type=False)
        body.append(f'{pad}  </initial>')
    if node.history_default is not None:
        write_transition(node.history_default, indent + 1, body, with_type=False)
    for block in node.onentry:
        body.append(f'{pad}  <onentry>')
        write_content(block, indent + 2, body)
        body.append(f'{pad}  </onentry>')
    for block in node.onexit:
        body.append(f'{pad}  <onexit>')
        write_content(block, indent + 2, body)
        body.append(f'{pad}  </onexit>')
    for t in node.transitions:
        write_transition(t, indent + 1, body)
    for child in node.children:
        write_node(child, indent + 1, body)
    if body:
        out.append(f'{pad}<{node.kind}{attrs}>')
        out.extend(body)
        out.append(f'{pad}</{node.kind}>')
    else:
        out.append(f'{pad}<{node.kind}{attrs}/>')


def generate(seed, exclude=frozenset()):
    """(document text, event lines) for `seed`, leaving out the `exclude`d FEATURES."""
    gen = Generator(seed, exclude)
    root = gen.build_tree()
    gen.decorate(root)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<!-- chartgen.py {seed}' + (f' exclude={",".join(sorted(exclude))}' if exclude else '') + ' -->']
    initial = f' initial={quoteattr(" ".join(root.initial_attr))}' if root.initial_attr else ''
    out.append(f'<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null"{initial}>')
    for child in root.children:
        write_node(child, 1, out)
    out.append('</scxml>')
    return '\n'.join(out) + '\n', gen.events()


def write_case(seed, directory, exclude=frozenset()):
    """Writes chart<seed>.scxml and chart<seed>.events in `directory`; returns both paths."""
    text, events = generate(seed, exclude)
    chart = os.path.join(directory, f'chart{seed}.scxml')
    event_file = os.path.join(directory, f'chart{seed}.events')
    with open(chart, 'w', encoding='utf-8') as f:
        f.write(text)
    with open(event_file, 'w', encoding='utf-8') as f:
        f.write(''.join(line + '\n' for line in events))
    return chart, event_file


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('seed', type=int)
    parser.add_argument('-o', '--output', default='.')
    parser.add_argument('--exclude', default='', help='comma-separated features to leave out: ' + ', '.join(FEATURES))
    args = parser.parse_args()
    os.makedirs(args.output, exist_ok=True)
    exclude = frozenset(f for f in args.exclude.split(',') if f)
    for path in write_case(args.seed, args.output, exclude):
        print(path)


if __name__ == '__main__':
    main()
