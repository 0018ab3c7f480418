#!/usr/bin/env node
// html_check.js - open an HTML report in headless Chromium and check it the
// way a reader would see it: the page's script ran without errors, the SVG
// charts are in the DOM with data (bars, lines with points), the tables
// sort when a header is clicked, nothing was fetched from the network, and
// strings from the results that look like markup (<script>, <img onerror>)
// show as text and never run.
//
// Talks to Chromium over the DevTools protocol on a pipe
// (--remote-debugging-pipe: fd 3 in, fd 4 out, NUL-separated JSON), so no
// port and no npm package are needed.
//
// It also checks what the first screen (1280x800) shows: the verdict, a
// table of contents, the configuration collapsed; and that every chart
// has data.  With "charts", the charts a full run must have: the overall
// ranking, an FQDN heatmap per phase and growth plot, a payload chart per
// scenario with the line rate.  RXB_SCREENSHOT=FILE.png saves the first
// screen.
//
// With "runs=N", a page of N runs (rxbench report A B ..., rxbench
// compare): a paragraph per run against the first, change charts (svg
// class "changes": a dot per benchmark and run against the first, a line
// at 0) with a dot colour per run, one with the geomean's change per run.
// With "plain", results without markup-like strings (a make bench run):
// none is looked for in the text.
//
// Before anything is opened, at 1280x1000 it measures the page's height
// (document.scrollingElement.scrollHeight) and prints it in screens of
// 1,000 px; with "screens=N" a page taller than N screens fails.  Then it
// opens every <details> (as a reader who expands everything) for the
// checks below.  On every page: no chart has more than 12 series (lines,
// or bar colours), no table header or heatmap column label is cut, a
// heatmap's every row has its own best cell coloured best (coloured
// within its row), and the harness floor (rows without an engine) is
// never drawn under an engine's name.  RXB_SCREENSHOT_FULL=FILE.png saves
// the whole closed page at 1280 wide.
//
// usage: html_check.js CHROMIUM REPORT.html [charts] [plain] [runs=N] [screens=N]
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const [chromium, report, ...modes] = process.argv.slice(2);
const modeValue = (k) => {
	const m = modes.find((a) => new RegExp('^' + k + '=[0-9]+$').test(a));
	return m ? parseInt(m.slice(k.length + 1), 10) : 0;
};
const mode = modes.includes('charts') ? 'charts' : modes[0];
// "runs=N": a report of N runs (rxbench report A B ... --format=html)
const RUNS = modeValue('runs');
// "screens=N": the closed page is at most N x 1,000 px tall
const SCREENS = modeValue('screens');
const SCREEN_PX = 1000;
if (!chromium || !report) {
	console.error('usage: html_check.js CHROMIUM REPORT.html');
	process.exit(2);
}
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'rxb-chromium-'));
const proc = spawn(chromium, [
	'--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
	'--no-first-run', '--disable-background-networking',
	'--disable-component-update', '--disable-sync',
	'--disable-dev-shm-usage', '--remote-debugging-pipe',
	'--user-data-dir=' + profile, 'about:blank',
], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });

let stderr = '';
proc.stderr.on('data', (d) => { stderr += d; });
const toBrowser = proc.stdio[3], fromBrowser = proc.stdio[4];
let nextId = 1, buf = '';
const pending = new Map(), listeners = [];

fromBrowser.on('data', (chunk) => {
	buf += chunk.toString('utf8');
	let nul;
	while ((nul = buf.indexOf('\0')) >= 0) {
		const msg = JSON.parse(buf.slice(0, nul));
		buf = buf.slice(nul + 1);
		if (msg.id && pending.has(msg.id)) {
			const { resolve, reject } = pending.get(msg.id);
			pending.delete(msg.id);
			if (msg.error) reject(new Error(JSON.stringify(msg.error)));
			else resolve(msg.result);
		} else {
			listeners.forEach((fn) => fn(msg));
		}
	}
});

function send(method, params = {}, sessionId) {
	const id = nextId++;
	const msg = { id, method, params };
	if (sessionId) msg.sessionId = sessionId;
	toBrowser.write(JSON.stringify(msg) + '\0');
	return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}

function waitFor(pred, ms, what) {
	return new Promise((resolve, reject) => {
		const t = setTimeout(() => reject(new Error('timed out waiting for ' + what)), ms);
		listeners.push((m) => { if (pred(m)) { clearTimeout(t); resolve(m); } });
	});
}

// The page as it opens: its height and what is open.
const closedProbe = `JSON.stringify({
	height: document.scrollingElement.scrollHeight,
	details: document.querySelectorAll('details').length,
	open: document.querySelectorAll('details[open]').length,
	configClosed: !!document.querySelector('details#config') && !document.querySelector('details#config').open,
})`;

// Everything the page is checked for, evaluated inside it, with every
// <details> open.
const probe = `(() => {
	const RUNS = ${RUNS};
	const q = (s) => Array.from(document.querySelectorAll(s));
	q('details').forEach((d) => { d.open = true; });
	const charts = q('svg').map((s) => ({
		kind: s.getAttribute('class'),
		title: (s.querySelector('text.title') || {}).textContent || '',
		bars: s.querySelectorAll('rect.bar').length,
		colours: new Set(Array.from(s.querySelectorAll('rect.bar')).map((b) => b.getAttribute('fill'))).size,
		lines: Array.from(s.querySelectorAll('path.series')).filter((p) =>
			/^M[0-9.]+,[0-9.]+( L[0-9.]+,[0-9.]+)+$/.test(p.getAttribute('d'))).length,
		dashed: s.querySelectorAll('path.series[stroke-dasharray]').length,
		points: s.querySelectorAll('circle.pt').length,
		cells: s.querySelectorAll('rect.cell').length,
		width: s.getBoundingClientRect().width,
		// a line chart's series: legend name, colour, style, points
		series: Array.from(s.querySelectorAll('g.series')).map((g) => {
			const p = g.querySelector('path.series') || { getAttribute: () => null, classList: { contains: () => false } };
			const entry = s.querySelector('g.toggle[data-series="' + g.dataset.series + '"] text');
			return { name: entry ? entry.textContent : '', stroke: p.getAttribute('stroke'),
				dashed: p.getAttribute('stroke-dasharray') !== null, floor: p.classList.contains('floor'),
				points: Array.from(g.querySelectorAll('circle.pt')).map((c) => c.dataset.v).join(' ') };
		}),
		legend: s.querySelectorAll('text.legend').length,
		// a change chart (several runs): its dots' colours, geomean marks, line at 0
		dotColours: new Set(Array.from(s.querySelectorAll('circle.pt')).map((c) => c.getAttribute('stroke'))).size,
		geo: s.querySelectorAll('rect.geo').length,
		zero: s.querySelectorAll('line.zero').length,
		// heatmap rows (cells by y): each row's ratios and colours
		rows: Object.values(Array.from(s.querySelectorAll('rect.cell')).reduce((rows, c) => {
			(rows[c.getAttribute('y')] = rows[c.getAttribute('y')] || []).push(
				{ ratio: parseFloat(c.dataset.ratio), fill: c.getAttribute('fill') });
			return rows; }, {})),
		// a heatmap's labels cut ("...") or drawn outside the chart
		cutLabels: Array.from(s.querySelectorAll(s.getAttribute('class') === 'heatmap' ? 'text.label' : 'text.col')).filter((t) => {
			const r = t.getBoundingClientRect(), b = s.getBoundingClientRect();
			return /[.][.][.]$/.test(t.textContent) || r.left < b.left - 1 || r.right > b.right + 1 ||
				r.top < b.top - 1;
		}).map((t) => t.textContent),
	}));
	// table headers whose text does not fit their cell
	const cutHeaders = q('th').filter((h) => h.scrollWidth > h.clientWidth + 1).map((h) => h.textContent);
	// sort the first FQDN table by ns/op, both ways (several runs: the
	// first table of medians by its first run's column)
	let sorted = null;
	const sortCol = (t) => RUNS ? (t.tHead.rows[0].cells.length > 2 &&
		t.tBodies[0].rows[0] && t.tBodies[0].rows[0].cells[1].dataset.v !== undefined ? 1 : -1)
		: Array.from(t.tHead.rows[0].cells).findIndex((c) => c.textContent === 'ns/op');
	const t = q('table.sortable').find((t) => sortCol(t) >= 0 && t.tBodies[0].rows.length > 3);
	if (t) {
		const col = sortCol(t);
		const vals = () => Array.from(t.tBodies[0].rows).map((r) => parseFloat(r.cells[col].dataset.v)).filter((v) => !isNaN(v));
		t.tHead.rows[0].cells[col].click();
		const up = vals();
		t.tHead.rows[0].cells[col].click();
		const down = vals();
		const isSorted = (a, d) => a.every((v, i) => i === 0 || (d ? a[i - 1] >= v : a[i - 1] <= v));
		sorted = { up: isSorted(up, false), down: isSorted(down, true), n: up.length };
	}
	const v = document.querySelector('section.verdict');
	const answer = document.querySelector('section.verdict p.answer');
	const firstScreen = (e) => e && e.getBoundingClientRect().top < window.innerHeight &&
		e.getBoundingClientRect().bottom > 0;
	return JSON.stringify({
		verdictFirst: firstScreen(v) && firstScreen(answer) && answer.textContent.length > 40,
		toc: !!document.querySelector('nav.toc'),
		ready: document.body.getAttribute('data-ready'),
		scripts: document.scripts.length,
		imgs: document.images.length,
		injected: typeof window.__rxb_pwned !== 'undefined',
		text: document.body.textContent,
		charts, sorted, cutHeaders,
		tables: q('table.sortable').length,
		answers: q('section.verdict p.answer').length,
	});
})()`;

async function main() {
	const errors = [], requests = [];
	listeners.push((m) => {
		if (m.method === 'Runtime.exceptionThrown')
			errors.push('exception: ' + JSON.stringify(m.params.exceptionDetails.exception || m.params.exceptionDetails.text));
		if (m.method === 'Runtime.consoleAPICalled' && (m.params.type === 'error' || m.params.type === 'assert'))
			errors.push('console.error: ' + JSON.stringify(m.params.args));
		if (m.method === 'Log.entryAdded' && m.params.entry.level === 'error')
			errors.push('log: ' + m.params.entry.text);
		if (m.method === 'Page.javascriptDialogOpening')
			errors.push('dialog opened: ' + m.params.message);
		if (m.method === 'Network.requestWillBeSent' && !/^(file|data|about):/.test(m.params.request.url))
			requests.push(m.params.request.url);
	});
	const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
	const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
	for (const d of ['Runtime', 'Log', 'Page', 'Network'])
		await send(d + '.enable', {}, sessionId);
	const viewport = (height) => send('Emulation.setDeviceMetricsOverride',
		{ width: 1280, height, deviceScaleFactor: 1, mobile: false }, sessionId);
	const evaluate = async (expression) => {
		const r = await send('Runtime.evaluate', { expression, returnByValue: true }, sessionId);
		if (r.exceptionDetails)
			throw new Error('probe failed: ' + JSON.stringify(r.exceptionDetails));
		return JSON.parse(r.result.value);
	};
	// the page as it opens, nothing expanded, at 1280x1000: its height
	await viewport(SCREEN_PX);
	const loaded = waitFor((m) => m.method === 'Page.loadEventFired' && m.sessionId === sessionId, 30000, 'page load');
	await send('Page.navigate', { url: 'file://' + path.resolve(report) }, sessionId);
	await loaded;
	const closed = await evaluate(closedProbe);
	if (process.env.RXB_SCREENSHOT_FULL) {
		const shot = await send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true,
			clip: { x: 0, y: 0, width: 1280, height: closed.height, scale: 1 } }, sessionId);
		fs.writeFileSync(process.env.RXB_SCREENSHOT_FULL, Buffer.from(shot.data, 'base64'));
	}
	// the first screen as checked since html_check began: 1280x800
	await viewport(800);
	await evaluate('JSON.stringify(window.scrollTo(0, 0) || 0)');
	if (process.env.RXB_SCREENSHOT) {
		const shot = await send('Page.captureScreenshot', { format: 'png' }, sessionId);
		fs.writeFileSync(process.env.RXB_SCREENSHOT, Buffer.from(shot.data, 'base64'));
	}
	const r = await send('Runtime.evaluate', { expression: probe, returnByValue: true }, sessionId);
	if (r.exceptionDetails)
		throw new Error('probe failed: ' + JSON.stringify(r.exceptionDetails));
	const page = JSON.parse(r.result.value);
	const fail = [];
	const check = (ok, what) => { if (!ok) fail.push(what); };

	console.log(`html_check: ${closed.height} px tall as it opens at 1280x1000 ` +
		`(${(closed.height / SCREEN_PX).toFixed(1)} screens of ${SCREEN_PX} px), ` +
		`${closed.details} <details>, ${closed.open} open`);
	if (SCREENS)
		check(closed.height <= SCREENS * SCREEN_PX, `the page is ${closed.height} px tall as it opens, ` +
			`over ${SCREENS} screens of ${SCREEN_PX} px`);
	check(page.ready === '1', 'the page script did not run to the end');
	check(errors.length === 0, 'errors in the page: ' + errors.join('; '));
	check(requests.length === 0, 'network requests: ' + requests.join(', '));
	check(page.scripts === 1, 'expected only the report\'s own <script>, found ' + page.scripts);
	check(page.imgs === 0, 'an <img> from the results was parsed as markup');
	check(!page.injected, 'a script from the results ran');
	for (const s of mode === 'charts' || modes.includes('plain') ? [] : RUNS ? ['<script>alert(1)<_script>'] :
		['<script>alert(1)<_script>', '<script>alert("x")</script> & \'quotes\' | pipes',
		'<img_src_x_onerror_alert(2)>'])
		check(page.text.includes(s), 'text not shown literally: ' + s);
	const bars = page.charts.filter((c) => c.kind === 'bars' && c.bars > 0 && c.width > 100);
	const lines = page.charts.filter((c) => c.kind === 'lines' && c.lines > 0 && c.points > 0);
	const heat = page.charts.filter((c) => c.kind === 'heatmap' && c.cells > 0);
	// the expectations of the first screen and of every chart
	check(page.verdictFirst, 'the verdict is not in the first screen (1280x800)');
	check(page.toc, 'no table of contents');
	check(closed.configClosed, 'the run configuration is not collapsed');
	check(page.charts.every((c) => c.bars + c.points + c.cells > 0), 'a chart without data: ' +
		page.charts.filter((c) => c.bars + c.points + c.cells === 0).map((c) => c.title).join('; '));
	// one question a chart: at most 12 contenders (lines that are no
	// reference and no floor; bar colours)
	const crowded = page.charts.filter((c) => c.series.filter((x) => !x.dashed).length > 12 ||
		(c.kind === 'bars' && c.colours > 12));
	check(crowded.length === 0, 'a chart with more than 12 series: ' + crowded.map((c) => c.title).join('; '));
	check(page.cutHeaders.length === 0, 'table headers cut: ' + page.cutHeaders.join(', '));
	const cut = page.charts.filter((c) => c.cutLabels.length);
	check(cut.length === 0, 'heatmap labels cut: ' + cut.map((c) => c.title + ': ' + c.cutLabels.join(', ')).join('; '));
	// a heatmap is coloured within its rows: every row has a best cell
	// (ratio 1), and every best cell has the one colour of the best
	const notRowWise = heat.filter((c) => !c.rows.every((r) => r.some((x) => x.ratio === 1)) ||
		new Set(c.rows.flat().filter((x) => x.ratio === 1).map((x) => x.fill)).size !== 1);
	check(notRowWise.length === 0, 'a heatmap not coloured against each row\'s best: ' +
		notRowWise.map((c) => c.title).join('; '));
	// the harness floor (no engine) is its own series, under its own name
	// and colour, never drawn again under each engine's name (series with
	// the same points under different names)
	const engineStrokes = new Set(page.charts.flatMap((c) => c.series.filter((x) => !x.floor && !x.dashed).map((x) => x.stroke)));
	const floors = page.charts.flatMap((c) => c.series.filter((x) => /^floor/.test(x.name)));
	check(floors.every((x) => x.floor && !engineStrokes.has(x.stroke)),
		'a floor series drawn like a contender: ' + JSON.stringify(floors.filter((x) => !x.floor || engineStrokes.has(x.stroke))));
	const twins = page.charts.filter((c) => {
		const pts = c.series.filter((x) => !x.dashed && x.points.split(' ').length >= 2).map((x) => x.points);
		return new Set(pts).size < pts.length;
	});
	check(twins.length === 0, 'a chart draws the same points under several names (a shared row drawn per engine?): ' +
		twins.map((c) => c.title).join('; '));
	if (mode === 'charts') {
		check(bars.some((c) => /overall ranking/.test(c.title)), 'no overall ranking chart with bars');
		check(heat.some((c) => /phase=match-name/.test(c.title)), 'no FQDN heatmap for match-name');
		const growth = lines.filter((c) => /growth with domains/.test(c.title));
		check(!/growth with domains/.test(page.text) ||
			growth.reduce((n, c) => n + c.lines, 0) >= 9,
			'no FQDN growth plots with a line per strategy x engine');
		check(lines.some((c) => /scenario=literal/.test(c.title) && c.dashed >= 1 && c.lines >= 3),
			'no payload chart per scenario with engines as series and the line rate drawn');
		check(page.charts.some((c) => /scenario=literal/.test(c.title) &&
			c.series.some((x) => x.floor && x.name === 'floor (harness, no engine)')),
			'no payload chart per scenario with the harness floor as "floor (harness, no engine)"');
		check(!page.charts.some((c) => /scenario=base/.test(c.title)),
			'a chart of the base scenario (the harness floor) by engine');
	}
	if (RUNS) {
		// a paragraph per run against the first; every change chart
		// has a dot colour per run after the first and its line at 0,
		// one the geomean's change of each
		check(page.answers === RUNS - 1, `expected ${RUNS - 1} answers (a run against the first each), found ${page.answers}`);
		const changes = page.charts.filter((c) => c.kind === 'changes');
		check(changes.length > 0 && changes.every((c) => c.dotColours === RUNS - 1 && c.zero === 1),
			'a change chart without a dot colour per run against the first, or its line at 0: ' +
			changes.map((c) => `${c.title} (${c.dotColours} colours, ${c.zero} zero lines)`).join('; '));
		check(changes.some((c) => c.geo === RUNS - 1), 'no change chart with the geomean\'s change per run');
		check(page.text.includes('What changed against the first column'), 'no summary of the changes');
	}
	check(page.sorted && page.sorted.up && page.sorted.down, 'a table did not sort: ' + JSON.stringify(page.sorted));
	console.log(`html_check: ${page.charts.length} charts (${bars.length} bar, ${lines.length} line, ` +
		`${heat.length} heatmap), ${page.tables} sortable tables, ${errors.length} page errors` +
		(page.verdictFirst ? ', verdict in the first screen' : ''));
	await send('Browser.close').catch(() => {});
	if (fail.length) {
		fail.forEach((f) => console.log('FAIL: ' + f));
		process.exitCode = 1;
	}
}

// The profile goes when chromium has gone; a helper process still writing
// in it (ENOTEMPTY while the directory empties) is waited out a little,
// and a profile left behind is said, never a failure of the page's checks.
function dropProfile() {
	try {
		fs.rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
	} catch (e) {
		console.log(`html_check: left ${profile} (${e.code || e.message})`);
	}
}

const guard = setTimeout(() => { console.log('FAIL: chromium did not answer in 60s'); proc.kill('SIGKILL'); process.exit(1); }, 60000);
main().catch((e) => {
	console.log('FAIL: ' + e.message);
	if (stderr) console.log(stderr.split('\n').slice(-10).join('\n'));
	process.exitCode = 1;
}).finally(() => {
	clearTimeout(guard);
	setTimeout(() => { proc.kill('SIGKILL'); dropProfile(); }, 500).unref();
	proc.on('exit', dropProfile);
});
