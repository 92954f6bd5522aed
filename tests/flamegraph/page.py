#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What a flame graph page holds, for tests/flamegraph.test.

    page.py data PAGE.html   the JSON tree inlined in the page, one node a
                             line: "VALUE<TAB>root;...;frame"
    page.py cells DOM.html   the cells d3-flame-graph drew, from a DOM that
                             tests/flamegraph/browse.js dumped: one
                             <g class="frame"> of the <svg class=
                             "d3-flame-graph"> in #chart a line,
                             "WIDTH<TAB>FILL<TAB>LABEL<TAB>NAME"; FILL is
                             its rect's colour, LABEL the text of its label
                             when shown, else "-"
"""
import json
import re
import sys
from html.parser import HTMLParser


def data(page):
    with open(page, encoding='utf-8') as f:
        m = re.search(r'^const data = (.*);$', f.read(), re.M)
    if not m:
        sys.exit(f'{page}: no "const data = ...;" line')
    root = json.loads(m.group(1))
    out = []
    todo = [(root, root['name'])] if root else []
    while todo:
        node, path = todo.pop()
        out.append(f'{node["value"]}\t{path}')
        todo += [(k, f'{path};{k["name"]}') for k in node.get('children', [])]
    print('\n'.join(sorted(out, key=lambda s: s.split('\t')[1])))


class Cells(HTMLParser):
    """Collects the frame cells under #chart's svg.d3-flame-graph."""

    def __init__(self):
        super().__init__()
        self.stack = []         # open elements: (tag, attrs)
        self.cells = []         # [width, fill, label, name]
        self.label = None       # the cell whose label div is open

    def inside(self, pred):
        return any(pred(tag, a) for tag, a in self.stack)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        in_chart = (self.inside(lambda t, x: x.get('id') == 'chart') and
                    self.inside(lambda t, x: t == 'svg' and
                                'd3-flame-graph' in x.get('class', '')))
        if in_chart and tag == 'g' and 'frame' in a.get('class', '').split():
            self.cells.append([a.get('width', '0'), '-', '-', a.get('name', '')])
        if in_chart and tag == 'rect' and self.cells:
            self.cells[-1][1] = a.get('fill', '-')
        if (in_chart and tag == 'div' and self.cells and
                a.get('class') == 'd3-flame-graph-label' and
                'display: none' not in a.get('style', '')):
            self.label = self.cells[-1]
            self.label[2] = ''
        self.stack.append((tag, a))

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break
        if tag == 'div':
            self.label = None

    def handle_data(self, text):
        if self.label is not None:
            self.label[2] += text


def cells(dom):
    p = Cells()
    with open(dom, encoding='utf-8') as f:
        p.feed(f.read())
    for width, fill, label, name in p.cells:
        print(f'{width}\t{fill}\t{label or "-"}\t{name}')


if __name__ == '__main__':
    if len(sys.argv) != 3 or sys.argv[1] not in ('data', 'cells'):
        sys.exit(__doc__)
    {'data': data, 'cells': cells}[sys.argv[1]](sys.argv[2])
