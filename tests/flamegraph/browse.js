// SPDX-License-Identifier: GPL-2.0
// Open a flame graph page in headless Chromium, as a person would, for
// tests/flamegraph.test.
//
//	node browse.js PAGE.html OUT [--click FRAME] [--search TERM]
//
// Writes OUT.dom.html (the DOM once the chart has drawn) and OUT.png (a
// 1200x700 screenshot); with --click, clicks FRAME's cell and writes
// OUT.click.dom.html; with --search, types TERM in the search box and
// writes OUT.search.dom.html.  Prints to stdout one line per request the
// page made ("request URL"; the page itself is one) and per error
// ("error TEXT": exceptions, console errors, refusals by the page's CSP).
// Exits 1 if Chromium fails or the chart does not settle within 20 s.
//
// It speaks the DevTools protocol over --remote-debugging-pipe (JSON
// messages ended by NUL on fds 3 and 4), so it needs no npm package, and
// it waits for the chart in real time: --dump-dom with a virtual time
// budget dumped the labels (drawn 750 ms in) in only half the runs.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const [pageFile, out, ...opts] = process.argv.slice(2);
const opt = (name) => {
	const i = opts.indexOf(name);
	return i >= 0 ? opts[i + 1] : undefined;
};
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'browse.'));
const chrome = spawn('chromium', ['--headless', '--no-sandbox', '--disable-gpu',
	'--disable-quic', '--no-first-run', '--disable-background-networking',
	'--disable-component-update', '--disable-sync', '--hide-scrollbars',
	`--user-data-dir=${profile}`, '--remote-debugging-pipe', 'about:blank'],
	{ stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });

// Browser.close lets Chromium and its helpers stop writing into the
// profile before it goes; a kill (SIGTERM) left files appearing in it
// during the removal.  What is still left, in $TMPDIR, is the caller's.
function finish(code, why) {
	if (why)
		console.log(`error ${why}`);
	chrome.once('exit', () => {
		try {
			fs.rmSync(profile, { recursive: true, force: true,
				maxRetries: 10, retryDelay: 100 });
		} catch (e) {
			// left to the caller
		}
		process.exit(code);
	});
	if (chrome.exitCode !== null || chrome.signalCode !== null) {
		chrome.emit('exit');
		return;
	}
	send('Browser.close').catch(() => {});
	setTimeout(() => chrome.kill('SIGKILL'), 5000).unref();
}
setTimeout(() => finish(1, 'browse.js: timed out'), 60000).unref();
chrome.on('error', (e) => finish(1, `chromium: ${e.message}`));

// The protocol: send() resolves with the answer to its id; events go to
// onEvent().
let lastId = 0;
const answers = new Map();
let buf = '';
chrome.stdio[4].on('data', (d) => {
	buf += d;
	let end;
	while ((end = buf.indexOf('\0')) >= 0) {
		const msg = JSON.parse(buf.slice(0, end));
		buf = buf.slice(end + 1);
		if (msg.id && answers.has(msg.id)) {
			const { resolve, reject, method } = answers.get(msg.id);
			answers.delete(msg.id);
			if (msg.error)
				reject(new Error(`${method}: ${msg.error.message}`));
			else
				resolve(msg.result);
		} else if (msg.method) {
			onEvent(msg.method, msg.params);
		}
	}
});
function send(method, params = {}, sessionId) {
	const id = ++lastId;
	chrome.stdio[3].write(JSON.stringify({ id, method, params, sessionId }) + '\0');
	return new Promise((resolve, reject) => answers.set(id, { resolve, reject, method }));
}

function onEvent(method, p) {
	if (method === 'Network.requestWillBeSent')
		console.log(`request ${p.request.url}`);
	else if (method === 'Runtime.exceptionThrown')
		console.log(`error ${p.exceptionDetails.exception?.description ?? p.exceptionDetails.text}`);
	else if (method === 'Runtime.consoleAPICalled' && p.type === 'error')
		console.log(`error console: ${p.args.map((a) => a.value ?? a.description).join(' ')}`);
	else if (method === 'Log.entryAdded' && p.entry.level === 'error')
		console.log(`error ${p.entry.source}: ${p.entry.text}`);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
	const { targetInfos } = await send('Target.getTargets');
	const { targetId } = targetInfos.find((t) => t.type === 'page');
	const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
	const page = (method, params) => send(method, params, sessionId);
	const js = async (expr) => (await page('Runtime.evaluate',
		{ expression: expr, returnByValue: true, awaitPromise: true })).result.value;
	for (const domain of ['Page', 'Runtime', 'Log', 'Network'])
		await page(`${domain}.enable`);
	await page('Emulation.setDeviceMetricsOverride',
		{ width: 1200, height: 700, deviceScaleFactor: 1, mobile: false });
	await page('Page.navigate', { url: 'file://' + path.resolve(pageFile) });

	// Drawn: the page has loaded, and no element of the chart has a d3
	// transition left (d3 deletes __transition when the last one ends).
	const settled = async () => {
		for (let t = 0; t < 200; t++) {
			await sleep(100);
			if (await js(`document.readyState === 'complete' &&
				[...document.querySelectorAll('#chart *')].every((n) => !n.__transition)`))
				return;
		}
		finish(1, 'the chart did not settle in 20 s');
	};
	const dump = async (file) =>
		fs.writeFileSync(file, await js('document.documentElement.outerHTML'));

	await settled();
	await dump(`${out}.dom.html`);
	const shot = await page('Page.captureScreenshot', { format: 'png' });
	fs.writeFileSync(`${out}.png`, Buffer.from(shot.data, 'base64'));

	const click = opt('--click');
	if (click !== undefined) {
		await js(`[...document.querySelectorAll('#chart g.frame')]
			.find((g) => g.getAttribute('name') === ${JSON.stringify(click)})
			.dispatchEvent(new MouseEvent('click', { bubbles: true }))`);
		await settled();
		await dump(`${out}.click.dom.html`);
	}
	const term = opt('--search');
	if (term !== undefined) {
		await js(`document.getElementById('term').value = ${JSON.stringify(term)};
			document.getElementById('search').requestSubmit()`);
		await settled();
		await dump(`${out}.search.dom.html`);
	}
	finish(0);
}
main().catch((e) => finish(1, `browse.js: ${e.message}`));
