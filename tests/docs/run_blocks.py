#!/usr/bin/env python3
"""Runs the command blocks of README.md and docs/*.md as a reader pastes them.

Every fenced block must say what it is: ```sh, ```bash, ```shell or ```console are commands
(a console block's commands are its lines starting with "$ "; the rest is output, not
compared); any other info string (text, c, cmake, ini, yaml, json, ...) is not run. A bare
``` is an error. HTML comments on the lines just above a command block mark it, each with its
reason after the colon:
    <!-- not-run: REASON -->   never run (a cluster, a GPU, the network, a whole test suite)
    <!-- slow: REASON -->      run only with --mode slow (the slow test)
    <!-- exit N: REASON -->    its commands exit 0 or N, and at least one exits N
The blocks of one file run in order in one bash process (so cd and export carry over, as in a
terminal), from the top of a scratch copy of the source tree, with HOME a scratch folder.
$HOME/.local/bin is on PATH. With --mode fast, the slow blocks are skipped, and the install a
slow block would make is the build under test installed into $HOME/.local; with --mode slow,
docs/install.md runs first and builds and installs gelucheck there from the copy.
GELUCHECK_REPO is the source tree (docs/ci.md's job clones it) and PREFIX a scratch folder of
its own (where that job installs). Relative links and the repository
paths the text cites must exist.

usage: run_blocks.py --src SRC --work DIR --mode fast|slow [--build BUILD] FILE|DIR...
"""
import argparse, os, re, shutil, subprocess, sys, time

RUN_LANGS = {'sh', 'bash', 'shell', 'console'}
MARK = re.compile(r'^\s*<!--\s*(not-run|slow|exit (\d+))\s*:\s*(\S.*?)\s*-->\s*$')
ANY_MARK = re.compile(r'^\s*<!--\s*(not-run|slow|exit)\b')
FENCE = re.compile(r'^(\s*)(```+|~~~+)\s*(\S*)')
PATH_RE = re.compile(r'`((?:adapters|bench|cli|cmake|docs|reference|reports|scripts|suites|tests)'
                     r'/[A-Za-z0-9_./-]*[A-Za-z0-9_/-])`')
LINK_RE = re.compile(r'\]\(([^)#\s]+)(#[^)]*)?\)')


def parse(path, rel):
    """The blocks of one file: dicts with line, lang, text, marks; and the errors found."""
    lines = open(path, encoding='utf-8').read().split('\n')
    blocks, errors, i = [], [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, lang = m.group(1), m.group(2), m.group(3).lower()
        start = i
        i += 1
        body = []
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
            i += 1
        i += 1
        if not lang:
            errors.append('%s:%d: a fence without a language (sh or console to run, text '
                          'for output)' % (rel, start + 1))
            continue
        marks, j = {}, start - 1
        while j >= 0 and (ANY_MARK.match(lines[j]) or not lines[j].strip()):
            if lines[j].strip():
                mm = MARK.match(lines[j])
                if not mm:
                    errors.append('%s:%d: a mark needs its reason: <!-- not-run: WHY -->, '
                                  '<!-- slow: WHY -->, <!-- exit N: WHY -->' % (rel, j + 1))
                elif mm.group(2):
                    marks['exit'] = int(mm.group(2))
                else:
                    marks[mm.group(1)] = mm.group(3)
            j -= 1
        if marks and lang not in RUN_LANGS:
            errors.append('%s:%d: marks on a block that is not run (%s)' % (rel, start + 1, lang))
        blocks.append(dict(line=start + 1, lang=lang, text=body, marks=marks))
    return blocks, errors, lines


def commands(block):
    if block['lang'] != 'console':
        return '\n'.join(block['text'])
    out, cont = [], False
    for l in block['text']:
        if cont or l.startswith('$ '):
            out.append(l[2:] if not cont else l)
            cont = l.rstrip().endswith('\\')
    return '\n'.join(out)


def check_paths(rel, lines, src, errors):
    here = os.path.dirname(rel)
    for n, l in enumerate(lines, 1):
        for m in LINK_RE.finditer(l):
            t = m.group(1)
            if re.match(r'^[a-z]+:', t):
                continue
            if not os.path.exists(os.path.join(src, here, t)):
                errors.append('%s:%d: link to %s, which is not in the repository' % (rel, n, t))
        for m in PATH_RE.finditer(l):
            t = m.group(1)
            if not os.path.exists(os.path.join(src, t)):
                errors.append('%s:%d: cites %s, which is not in the repository' % (rel, n, t))


def copy_tree(src, dst):
    files = subprocess.run(['git', '-C', src, 'ls-files', '-z'], capture_output=True)
    if files.returncode == 0:
        for f in files.stdout.decode().split('\0'):
            if f and os.path.isfile(os.path.join(src, f)):
                os.makedirs(os.path.join(dst, os.path.dirname(f)), exist_ok=True)
                shutil.copy2(os.path.join(src, f), os.path.join(dst, f), follow_symlinks=False)
    else:
        shutil.copytree(src, dst, symlinks=True, ignore=shutil.ignore_patterns(
            'build', 'node_modules', '.git'))
    nm = os.path.join(src, 'adapters/onnxruntime/node_modules')
    if os.path.isdir(nm):  # what scripts/setup's npm ci would fetch
        os.symlink(nm, os.path.join(dst, 'adapters/onnxruntime/node_modules'))


def script(rel, blocks, mode):
    s = ['set -o pipefail', 'cd "$GC_DOCS_TREE"']
    ran = 0
    for b in blocks:
        if b['lang'] not in RUN_LANGS or 'not-run' in b['marks']:
            continue
        if 'slow' in b['marks'] and mode != 'slow':
            continue
        ran += 1
        where = '%s:%d' % (rel, b['line'])
        s.append('echo "### %s" >&2' % where)
        cmd = commands(b)
        if 'exit' in b['marks']:
            n = b['marks']['exit']
            s.append('( __seen=0; trap \'__rc=$?; if [ $__rc -eq %d ]; then __seen=1; else '
                     'echo "docs: %s: a command exited $__rc" >&2; exit 99; fi\' ERR' % (n, where))
            s.append(cmd)
            s.append('[ $__seen -eq 1 ] || { echo "docs: %s: no command exited %d" >&2; '
                     'exit 98; } )' % (where, n))
            # not "( ... ) || exit": on the left of || bash would ignore the ERR trap inside
            s.append('[ $? -eq 0 ] || exit 1')
        else:
            s.append('set -e')
            s.append(cmd)
            # the last command's status too: set -e lets a failing a && b through
            s.append('__st=$?; set +e; [ $__st -eq 0 ] || { echo "docs: %s: exit status '
                     '$__st" >&2; exit 1; }' % where)
    s.append('echo "### %s: done" >&2' % rel)
    return '\n'.join(s) + '\n', ran


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--src', required=True)
    ap.add_argument('--work', required=True)
    ap.add_argument('--mode', choices=['fast', 'slow'], required=True)
    ap.add_argument('--build', help='the build under test (fast: installed into $HOME/.local)')
    ap.add_argument('files', nargs='+')
    a = ap.parse_args()
    src = os.path.abspath(a.src)
    work = os.path.abspath(a.work)
    if os.path.exists(work):
        shutil.rmtree(work)
    tree, home = os.path.join(work, 'tree'), os.path.join(work, 'home')
    os.makedirs(home)
    errors, parsed = [], []
    files = []
    for f in a.files:  # a folder stands for its *.md
        files += sorted(os.path.join(f, n) for n in os.listdir(f) if n.endswith('.md')) \
            if os.path.isdir(f) else [f]
    for f in files:
        rel = os.path.relpath(os.path.abspath(f), src)
        blocks, errs, lines = parse(f, rel)
        errors += errs
        check_paths(rel, lines, src, errors)
        parsed.append((rel, blocks))
    if errors:
        print('\n'.join(errors))
        return 1
    # PREFIX: where docs/ci.md's job installs (its own clone, which has no node_modules: not
    # over $HOME/.local, which the other pages use)
    env = dict(os.environ, HOME=home, GELUCHECK_REPO=src, PREFIX=os.path.join(home, 'ci-prefix'),
               GC_DOCS_TREE=tree)
    env.pop('CI', None)
    if a.mode == 'fast':
        if not a.build:
            sys.exit('--mode fast needs --build')
        r = subprocess.run(['cmake', '--install', a.build, '--prefix',
                            os.path.join(home, '.local')], capture_output=True, text=True)
        if r.returncode:
            sys.exit('cmake --install failed:\n' + r.stdout + r.stderr)
    # on PATH in both modes: with --mode slow, docs/install.md (run first) installs there
    env['PATH'] = os.path.join(home, '.local', 'bin') + ':' + env['PATH']
    # docs/install.md first: in the slow set its blocks build and install what the others use
    parsed.sort(key=lambda p: p[0] != 'docs/install.md')
    t0 = time.monotonic()
    copy_tree(src, tree)
    print('scratch copy of the source tree: %.0f s' % (time.monotonic() - t0))
    total, failed = 0, []
    for rel, blocks in parsed:
        text, ran = script(rel, blocks, a.mode)
        if not ran:
            continue
        total += ran
        sh = os.path.join(work, rel.replace('/', '_') + '.sh')
        open(sh, 'w').write(text)
        t0 = time.monotonic()
        r = subprocess.run(['bash', sh], env=env, cwd=tree, capture_output=True, text=True)
        took = time.monotonic() - t0
        last = [l for l in r.stderr.split('\n') if l.startswith('### ')]
        if r.returncode:
            failed.append(rel)
            print('FAIL %s: %d blocks; the failing block: %s (exit %d)' % (
                rel, ran, last[-1][4:] if last else '?', r.returncode))
            print((r.stdout[-3000:] + r.stderr[-3000:]).rstrip())
        else:
            print('ok   %s: %d blocks, %.0f s' % (rel, ran, took))
    print('%d command blocks run (%s set), %d files failed' % (total, a.mode, len(failed)))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
