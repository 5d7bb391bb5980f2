#!/usr/bin/env python3
"""Differential test: random charts through `statechart trace` and through the C program that
`statechart generate c --trace-main` writes, standard output compared byte for byte.

    differential.py [--count N] [--seed S] [--exclude FEATURE,...] [--jobs J] [--findings DIR]

Charts are chartgen.py's seeds S, S+1, ..., S+N-1. For each chart: `statechart generate c
chart.scxml -o DIR --name cSEED --trace-main` must succeed (a refusal is a failure: every
generated chart is a valid null-datamodel document); `statechart trace chart.scxml < events`
gives the expected output; the generated C, compiled with -std=c11 -Wall -Wextra -Wpedantic
-Werror (the batches take gcc and clang in turn), must print the same, and write the same `<log>` lines to standard error in the same order (they show
the order in which executable content ran, which the configurations alone do not). To keep the C compiler's start-up cost down, the charts of a
batch are compiled by one `cc -c` and linked into one program whose first argument picks the
chart: each chart's generated main() is renamed to diff_main_SEED with objcopy (every other
symbol the generator writes already carries the chart's name). The generated files are not
edited. A mismatch is built again exactly as the issue describes (`cc -std=c11 -I
CStateCore/include DIR/*.c CStateCore/*.c`) and checked again, and its chart, events, both
outputs and the generated C are kept in the findings folder with the seed printed.

The last line is `N passed, M failed`; the exit status is non-zero when anything failed.
"""

import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, HERE)
import chartgen  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
CFLAGS = ['-std=c11', '-Wall', '-Wextra', '-Wpedantic', '-Werror']
# Both engines finish every generated chart well within this; a timeout is reported as a failure.
TIMEOUT = 60


def run(args, stdin=None, cwd=None, timeout=TIMEOUT):
    """(exit status, stdout bytes, stderr bytes); a timeout is status 'timeout'."""
    try:
        with open(stdin, 'rb') if stdin else open(os.devnull, 'rb') as source:
            done = subprocess.run(args, stdin=source, capture_output=True, cwd=cwd, timeout=timeout)
        return done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired as expired:
        return 'timeout', expired.stdout or b'', expired.stderr or b''


class Case:
    def __init__(self, seed, work, exclude):
        self.seed = seed
        self.name = f'c{seed}'
        self.dir = os.path.join(work, self.name)
        os.makedirs(self.dir)
        self.chart, self.events = chartgen.write_case(seed, self.dir, exclude)
        self.gen_dir = os.path.join(self.dir, 'gen')
        self.problem = None          # text of the failure, if any
        self.expected = self.actual = None

    def event_lines(self):
        with open(self.events, encoding='utf-8') as f:
            return f.read().split('\n')[:-1]


def prepare(case, tool):
    """Generates the C and runs the Swift engine; sets case.problem on a failure."""
    status, out, err = run([tool, 'generate', 'c', case.chart, '-o', case.gen_dir, '--name', case.name,
                            '--trace-main'])
    if status != 0:
        case.problem = f'generate c refused a valid chart (exit {status}):\n{(out + err).decode(errors="replace")}'
        return
    status, out, err = run([tool, 'trace', case.chart], stdin=case.events)
    case.expected, case.expected_err = out, err
    if status != 0:
        case.problem = f'statechart trace exited {status}:\n{err.decode(errors="replace")}'
    elif len(out.splitlines()) != 1 + sum(1 for line in case.event_lines() if line.strip()):
        # One line for start-up and one per non-blank input line: anything else means the
        # comparison would be vacuous (or the contract changed).
        case.problem = f'statechart trace printed {len(out.splitlines())} lines for {case.events}'


def build_batch(cases, work, cc, core_objects, index):
    """Compiles the cases' generated C into one program; returns its path, or None after marking
    the cases whose own files do not compile."""
    bdir = os.path.join(work, f'batch{index}')
    os.makedirs(bdir)
    sources = [os.path.join(c.gen_dir, f) for c in cases for f in (f'{c.name}.c', f'{c.name}_main.c')]
    status, out, err = run([cc, *CFLAGS, '-O0', '-I', os.path.join(ROOT, 'CStateCore/include'), '-c', *sources],
                           cwd=bdir, timeout=600)
    if status != 0:
        # Find the charts whose files fail, one by one; the others go on in a new batch.
        good = []
        for c in cases:
            s, o, e = run([cc, *CFLAGS, '-O0', '-I', os.path.join(ROOT, 'CStateCore/include'), '-c',
                           os.path.join(c.gen_dir, f'{c.name}.c'), os.path.join(c.gen_dir, f'{c.name}_main.c')],
                          cwd=bdir)
            if s != 0:
                c.problem = f'the generated C does not compile with {cc} {" ".join(CFLAGS)}:\n{(o + e).decode(errors="replace")}'
            else:
                good.append(c)
        cases[:] = good
        if not good:
            return None
    for c in cases:
        status, out, err = run(['objcopy', '--redefine-sym', f'main=diff_main_{c.seed}', f'{c.name}_main.o'], cwd=bdir)
        if status != 0:
            raise SystemExit(f'objcopy failed: {err.decode()}')
    dispatcher = os.path.join(bdir, 'dispatch.c')
    with open(dispatcher, 'w') as f:
        f.write('#include <stdlib.h>\n#include <string.h>\n#include <stdio.h>\n')
        for c in cases:
            f.write(f'int diff_main_{c.seed}(int argc, char **argv);\n')   # the trace main's own
        f.write('int main(int argc, char **argv) {\n    if (argc != 2) return 99;\n    long seed = atol(argv[1]);\n')
        f.write('    switch (seed) {\n')
        for c in cases:
            f.write(f'    case {c.seed}: return diff_main_{c.seed}(1, argv);   /* no switch: the Swift sizes */\n')
        f.write('    }\n    fprintf(stderr, "no chart %ld\\n", seed);\n    return 99;\n}\n')
    objects = [os.path.join(bdir, f'{c.name}{suffix}.o') for c in cases for suffix in ('', '_main')]
    program = os.path.join(bdir, 'charts')
    status, out, err = run([cc, *CFLAGS, '-O0', dispatcher, *objects, *core_objects, '-o', program], cwd=bdir)
    if status != 0:
        raise SystemExit(f'linking batch {index} failed:\n{(out + err).decode(errors="replace")}')
    return program


def log_lines(stderr):
    """The `<log>` lines both programs write to standard error, in the order the content ran."""
    return [line for line in stderr.splitlines() if line.startswith(b'log: ')]


def check_case(case, program):
    status, out, err = run([program, str(case.seed)], stdin=case.events)
    case.actual, case.actual_err = out, err
    if status == 'timeout':
        case.problem = 'the generated C program did not finish'
    elif out != case.expected:
        case.problem = 'outputs differ'
    elif log_lines(err) != log_lines(case.expected_err):
        case.problem = 'log lines differ'
    elif status != 0:
        case.problem = f'the generated C program exited {status}: {err.decode(errors="replace")}'


def confirm_alone(case, cc):
    """Builds the mismatching chart alone with the issue's exact command and runs it again."""
    program = os.path.join(case.dir, 'prog')
    core = [os.path.join(ROOT, 'CStateCore', f) for f in sorted(os.listdir(os.path.join(ROOT, 'CStateCore')))
            if f.endswith('.c')]
    gen = [os.path.join(case.gen_dir, f) for f in sorted(os.listdir(case.gen_dir)) if f.endswith('.c')]
    status, out, err = run([cc, '-std=c11', '-I', os.path.join(ROOT, 'CStateCore/include'), *gen, *core, '-o', program])
    if status != 0:
        return f'(the single-chart build failed: {err.decode(errors="replace")[:500]})'
    status, out, err = run([program], stdin=case.events)
    if out == case.actual:
        return 'the single-chart build (cc -std=c11 -I CStateCore/include DIR/*.c CStateCore/*.c) prints the same'
    with open(os.path.join(case.dir, 'alone.txt'), 'wb') as f:
        f.write(out)
    return 'the single-chart build prints something else again (kept as alone.txt)'


def keep_finding(case, findings, exclude, note=''):
    target = os.path.join(findings, f'seed{case.seed}')
    if os.path.exists(target):
        shutil.rmtree(target)
    shutil.copytree(case.dir, target, ignore=shutil.ignore_patterns('*.o', 'prog'))
    with open(os.path.join(target, 'README.txt'), 'w') as f:
        f.write(f'seed {case.seed}; regenerate with: Tests/Differential/chartgen.py {case.seed}'
                + (f' --exclude {",".join(sorted(exclude))}' if exclude else '') + '\n')
        f.write(case.problem + '\n' + note + '\n')
    for name, data in (('swift.txt', case.expected), ('swift-stderr.txt', getattr(case, 'expected_err', None)),
                       ('c.txt', case.actual), ('c-stderr.txt', getattr(case, 'actual_err', None))):
        if data is not None:
            with open(os.path.join(target, name), 'wb') as f:
                f.write(data)
    return target


def show_diff(case, logs=False):
    if logs:
        expected = [l.decode(errors='replace') for l in log_lines(case.expected_err)]
        actual = [l.decode(errors='replace') for l in log_lines(case.actual_err)]
    else:
        expected = (case.expected or b'').decode(errors='replace').splitlines()
        actual = (case.actual or b'').decode(errors='replace').splitlines()
    for n, (e, a) in enumerate(zip(expected, actual), 1):
        if e != a:
            return f'  first difference, line {n}:\n    swift: {e}\n    c:     {a}'
    return f'  swift printed {len(expected)} lines, c {len(actual)}'


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--count', type=int, default=200)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--exclude', default='', help='features to leave out: ' + ', '.join(chartgen.FEATURES))
    parser.add_argument('--jobs', type=int, default=2)
    parser.add_argument('--batch', type=int, default=50, help='charts per compiled program')
    parser.add_argument('--findings', default=os.path.join(ROOT, '.build', 'differential-findings'))
    parser.add_argument('--tool', help='the statechart executable (default: swift build --show-bin-path)')
    clang = '/opt/swift/usr/bin/clang'
    parser.add_argument('--cc', default='gcc,' + (clang if os.path.exists(clang) else 'clang'),
                        help='C compilers, comma-separated, taken in turn by the batches')
    parser.add_argument('--shrink', type=int, default=0, metavar='N',
                        help='shrink the first N mismatches (minutes each) into min.scxml/min.events')
    parser.add_argument('--keep', action='store_true', help='keep the work folder and print its path')
    args = parser.parse_args()
    exclude = frozenset(f for f in args.exclude.split(',') if f)
    chartgen.Generator(0, exclude)  # rejects unknown feature names
    tool = args.tool or os.path.join(subprocess.run(['swift', 'build', '--show-bin-path'], cwd=ROOT, check=True,
                                                    capture_output=True, text=True).stdout.strip(), 'statechart')
    work = tempfile.mkdtemp(prefix='differential-')
    try:
        compilers = [c for c in args.cc.split(',') if c]
        core_objects = {}
        for n, cc in enumerate(compilers):
            core_dir = os.path.join(work, f'core{n}')
            os.makedirs(core_dir)
            core_sources = sorted(os.path.join(ROOT, 'CStateCore', f)
                                  for f in os.listdir(os.path.join(ROOT, 'CStateCore')) if f.endswith('.c'))
            status, out, err = run([cc, *CFLAGS, '-O1', '-I', os.path.join(ROOT, 'CStateCore/include'), '-c',
                                    *core_sources], cwd=core_dir, timeout=600)
            if status != 0:
                raise SystemExit(f'the C core does not compile with {cc}:\n{err.decode()}')
            core_objects[cc] = sorted(os.path.join(core_dir, f) for f in os.listdir(core_dir))

        cases = [Case(seed, work, exclude) for seed in range(args.seed, args.seed + args.count)]
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            list(pool.map(lambda c: prepare(c, tool), cases))
            ready = [c for c in cases if c.problem is None]
            batches = [ready[i:i + args.batch] for i in range(0, len(ready), args.batch)]
            def build(numbered):
                n, batch = numbered
                cc = compilers[n % len(compilers)]
                return build_batch(batch, work, cc, core_objects[cc], n)
            programs = list(pool.map(build, enumerate(batches)))
            for batch, program in zip(batches, programs):
                if program:
                    list(pool.map(lambda c: check_case(c, program), batch))

        failed = [c for c in cases if c.problem is not None]
        shrinks_left = args.shrink
        if failed:
            os.makedirs(args.findings, exist_ok=True)
        for c in failed:
            note = ''
            if c.problem == 'outputs differ':
                note = confirm_alone(c, compilers[0])
            where = keep_finding(c, args.findings, exclude, note)
            print(f'FAIL seed {c.seed}: {c.problem.splitlines()[0]} (kept in {where})')
            if c.problem in ('outputs differ', 'log lines differ'):
                print(show_diff(c, logs=c.problem == 'log lines differ'))
                if note:
                    print(f'  {note}')
                chart = os.path.join(where, os.path.basename(c.chart))
                events = os.path.join(where, os.path.basename(c.events))
                if shrinks_left > 0:
                    shrinks_left -= 1
                    done = subprocess.run([sys.executable, os.path.join(HERE, 'shrink.py'), chart, events,
                                           '--tool', tool, '--cc', compilers[0]], capture_output=True, text=True)
                    print(f'  shrunk: {(done.stdout + done.stderr).strip()}')
                else:
                    print(f'  shrink it: Tests/Differential/shrink.py {chart} {events}')
            else:
                for line in c.problem.splitlines()[1:6]:
                    print(f'  {line}')
        # How much the charts did, so a generator that stopped exercising anything shows.
        moving = sum(1 for c in cases if c.expected and len(set(l.split(b'"configuration"')[1]
                                                              for l in c.expected.splitlines())) > 1)
        logs = sum(len(log_lines(c.expected_err)) for c in cases if c.expected is not None)
        lines = sum(len(c.expected.splitlines()) for c in cases if c.expected)
        runaways = sum(c.expected_err.count(b'runaway macrostep') for c in cases if c.expected is not None)
        print(f'coverage: {moving} of {len(cases)} charts changed configuration; {lines} trace lines, '
              f'{logs} <log> lines compared; {runaways} runaway macrosteps')
        if exclude:
            print(f'excluded features: {", ".join(sorted(exclude))} (these charts are generated without them)')
        if args.keep:
            print(f'work folder: {work}')
        print(f'differential: {len(cases) - len(failed)} passed, {len(failed)} failed '
              f'(seeds {args.seed}..{args.seed + args.count - 1})')
        return 1 if failed else 0
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
