// SPDX-License-Identifier: GPL-2.0
// Folded stacks -> one self-contained HTML flame graph (scripts/flamegraph.sh
// runs it; see there for usage).
//
//	node render.js NODE_MODULES FOLDED OUT.html TITLE
//
// Input: one stack a line, "root;...;leaf COUNT", COUNT a positive integer
// after the last space (frame names may hold spaces); "#" lines are
// comments, empty lines are ignored, repeated stacks add up.  Any other
// line is skipped and counted: the count goes to stderr and onto the page.
// Output: OUT.html with d3, d3-flame-graph, its CSS and the data inlined,
// under a Content-Security-Policy that lets the page load nothing at all;
// stdout gets "OUT.html: N samples".
'use strict';
const fs = require('fs');
const path = require('path');

// A stack deeper than this keeps its outermost MAX_DEPTH - 2 frames, one
// "[cut: N frames]" frame and its leaf, so the leaf's samples still land
// on the right function.  The page walks the tree recursively (zoom,
// search) and Chromium's JS stack holds about 10,000 such calls; kernel
// stacks are far below this.
const MAX_DEPTH = 1024;

function parseFolded(text) {
	const root = { name: 'all', value: 0, kids: new Map() };
	const bad = [];
	let stacks = 0;
	let cut = 0;
	text.split('\n').forEach((raw, i) => {
		const line = raw.replace(/\r$/, '');
		if (line.trim() === '' || line.startsWith('#'))
			return;
		const sp = line.lastIndexOf(' ');
		const count = sp > 0 ? line.slice(sp + 1) : '';
		let frames = sp > 0 ? line.slice(0, sp).split(';') : [];
		if (!/^[1-9][0-9]*$/.test(count) || !Number.isSafeInteger(+count) ||
		    frames.some((f) => f.trim() === '')) {
			bad.push(i + 1);
			return;
		}
		if (frames.length > MAX_DEPTH) {
			const n = frames.length - (MAX_DEPTH - 1);
			frames = frames.slice(0, MAX_DEPTH - 2)
				.concat([`[cut: ${n} frames]`], frames.slice(-1));
			cut++;
		}
		let node = root;
		node.value += +count;
		for (const name of frames) {
			let kid = node.kids.get(name);
			if (!kid) {
				kid = { name, value: 0, kids: new Map() };
				node.kids.set(name, kid);
			}
			kid.value += +count;
			node = kid;
		}
		stacks++;
	});
	return { root, bad, stacks, cut };
}

// d3-flame-graph's {name, value, children}; value includes the children's.
function toJSON(node) {
	const out = { name: node.name, value: node.value };
	if (node.kids.size)
		out.children = [...node.kids.values()].map(toJSON);
	return out;
}

// Text inside <script> ends at the first "</script"; "<!--" changes how
// it is parsed.  JSON may hold either in a frame name: escape every "<".
function scriptJSON(v) {
	return JSON.stringify(v).replace(/</g, '\\u003c');
}

function html(s) {
	return s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function inlined(modules, file) {
	const text = fs.readFileSync(path.join(modules, file), 'utf8');
	if (/<\/script|<!--/i.test(text))
		throw new Error(`${file} cannot be inlined in <script>`);
	return text;
}

// The page.  Only d3's own namespace strings name a URL, and nothing may
// be fetched: default-src 'none' lets the browser itself enforce that.
function page(modules, title, data, summary) {
	const d3 = inlined(modules, 'd3/dist/d3.min.js');
	const fg = inlined(modules, 'd3-flame-graph/dist/d3-flamegraph.umd.min.js');
	const css = inlined(modules, 'd3-flame-graph/dist/d3-flamegraph.css');
	return `<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'">
<title>${html(title)}</title>
<style>
${css}
body { font-family: Verdana, sans-serif; margin: 8px 16px; }
h1 { font-size: 18px; margin: 4px 0; }
#controls { margin: 6px 0; }
#details { min-height: 1.4em; font-size: 12px; }
</style>
</head>
<body>
<h1>${html(title)}</h1>
<div id="summary">${html(summary)}</div>
<div id="controls">
<form id="search"><input id="term" type="text" size="40" placeholder="search (substring)">
<button type="submit">Search</button> <button id="clear" type="button">Clear</button>
<button id="reset" type="button">Reset zoom</button></form>
</div>
<div id="chart"></div>
<div id="details"></div>
<script>
${d3}
</script>
<script>
${fg}
</script>
<script>
'use strict';
const data = ${scriptJSON(data)};
(function () {
	if (!data) {
		document.getElementById('controls').style.display = 'none';
		return;
	}
	const el = document.getElementById('chart');
	const pct = d3.format('.2%');
	const tip = flamegraph.tooltip.defaultFlamegraphTooltip()
		.text((d) => d.data.name + ': ' + d.value + ' samples (' +
			pct(d.value / data.value) + ')');
	const chart = flamegraph.default()
		.width(Math.max(el.clientWidth, 480))
		.sort(true)
		.tooltip(tip)
		// Frame names hold brackets: search for a substring, not a regex.
		.setSearchMatch((d, term) => !!term && d.data.name.includes(term))
		.setDetailsElement(document.getElementById('details'));
	d3.select(el).datum(data).call(chart);
	document.getElementById('search').addEventListener('submit', (e) => {
		e.preventDefault();
		chart.search(document.getElementById('term').value);
	});
	document.getElementById('clear').onclick = () => {
		document.getElementById('term').value = '';
		chart.clear();
	};
	document.getElementById('reset').onclick = () => chart.resetZoom();
})();
</script>
</body>
</html>
`;
}

function main(argv) {
	const [modules, folded, out, title] = argv;
	const { root, bad, stacks, cut } = parseFolded(fs.readFileSync(folded, 'utf8'));
	let summary = root.value ? `${root.value} samples in ${stacks} stacks from ${folded}`
		: `no samples in ${folded}`;
	if (bad.length) {
		const first = bad.slice(0, 5).join(', ');
		console.error(`flamegraph: ${folded}: skipped ${bad.length} bad line(s): ` +
			`line ${first}${bad.length > 5 ? ', ...' : ''}`);
		summary += `; ${bad.length} bad line(s) skipped`;
	}
	if (cut) {
		console.error(`flamegraph: ${folded}: ${cut} stack(s) deeper than ` +
			`${MAX_DEPTH} frames cut in the middle`);
		summary += `; ${cut} stack(s) deeper than ${MAX_DEPTH} frames cut`;
	}
	const data = root.value ? toJSON(root) : null;
	fs.writeFileSync(out, page(modules, title, data, summary));
	console.log(`${out}: ${root.value} samples`);
}

main(process.argv.slice(2));
