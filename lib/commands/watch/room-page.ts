/**
 * `watch --serve`: the room as a live page for a browser on the projector.
 * {@link roomPageState} turns a snapshot into the page's state (JSON, one line),
 * which the server (lib/kit/http/live-server.ts) pushes to the page as a
 * server-sent event every interval; {@link roomPageHtml} is the page: one
 * self-contained document whose inline script draws the room (one row per
 * attendee, a cell per exposure, the legend, the latest changes) or, on a
 * click on an attendee, their detail (each exposure's figures, the changes
 * that name them, and any panels given for them), and redraws on every
 * event, without a reload. It loads nothing but its own server's events.
 *
 * Panels are the seam for what else a host wants per attendee on the same
 * page: pass `panels` to roomPageState and each attendee's detail shows them
 * as titled lists. `progress` adds cells beside each attendee's row, with
 * their note and legend under the room: `watch --progress` passes both, each
 * attendee's handout exercises (room-progress.ts).
 */
import { htmlPage, SERVED_PAGE_CSP } from '../../kit/svg/html-page';
import { MODE_CODES, ROOM_GLYPHS, RoomCellState, roomColumns } from '../../lab/probe/room';
import { cellState, clockTime, roomRows, verdictOf } from './render-watch';
import { ExposureSnapshot, WatchEvent, WatchFrame } from './watch';

/** One line of a panel: a label, whether it is good, bad, unknown or neither (neutral), and words. */
export interface PanelRow {
  readonly label: string;
  readonly state: 'good' | 'bad' | 'unknown' | 'neutral';
  readonly text: string;
}

/** One cell beside an attendee's row: its state (a class on the page; empty where the column is not theirs), glyph and words. */
export interface ProgressCell {
  readonly state: string;
  readonly glyph: string;
  readonly text: string;
}

/** Cells beside each attendee's row (their handout's exercises), under a title, with a note and a legend under the room. */
export interface RoomProgress {
  readonly title: string;
  readonly note: string;
  readonly columns: readonly { readonly id: string; readonly code: string }[];
  readonly legend: readonly { readonly state: string; readonly glyph: string; readonly meaning: string }[];
  /** One cell per column for an attendee. */
  readonly cells: (env: string) => readonly ProgressCell[];
}

/** A titled list shown in an attendee's detail (e.g. their progress through the exercises). */
export interface AttendeePanel {
  readonly title: string;
  readonly rows: readonly PanelRow[];
}

/** One exposure's figures, as the terminal's table shows them. */
export interface PageExposure {
  readonly label: string;
  readonly cloud: string;
  readonly mode: string;
  readonly state: RoomCellState;
  readonly not_probed_because: string | null;
  readonly rps: number;
  /** Failures in the window, in words (`0`, `5 HTTP 503`). */
  readonly errors: string;
  readonly p50_ms: number | null;
  readonly p99_ms: number | null;
  readonly pods: number;
  readonly nodes: number;
  /** The client-IP verdict in words (`tcp-source, no SNAT`, `none, SNAT MISMATCH`, `not measured`). */
  readonly client_ip: string;
}

export interface PageAttendee {
  readonly env: string;
  readonly cells: readonly { readonly cloud: string; readonly mode: string; readonly state: RoomCellState; readonly changed: boolean }[];
  readonly exposures: readonly PageExposure[];
  readonly panels: readonly AttendeePanel[];
  /** One cell per progress column (none without progress). */
  readonly progress: readonly ProgressCell[];
}

/** What the page draws: the room now. */
export interface RoomPageState {
  readonly schema: 'hoplab.room/v1';
  /** What is watched, the rate, the time: the line above the room. */
  readonly header: string;
  readonly t_ms: number;
  /** The watch has ended: the page no longer updates. */
  readonly final: boolean;
  readonly legend: readonly { readonly state: RoomCellState; readonly glyph: string; readonly meaning: string }[];
  readonly columns: readonly { readonly cloud: string; readonly mode: string; readonly code: string }[];
  readonly attendees: readonly PageAttendee[];
  /** The latest changes, oldest first. */
  readonly changes: readonly { readonly time: string; readonly env: string; readonly label: string; readonly kind: WatchEvent['kind']; readonly text: string }[];
  /** The progress columns, their note and legend; null without them. */
  readonly progress: Omit<RoomProgress, 'cells'> | null;
}

/** Changes the page lists (the latest). */
export const PAGE_CHANGES = 40;

function errorWords(s: ExposureSnapshot): string {
  const n = Object.values(s.errors).reduce((a, b) => a + b, 0);
  return n === 0 ? '0' : `${n} ${Object.keys(s.errors).join(', ')}`;
}

/** The page's state for a snapshot and the changes so far; `panels` gives each attendee's panels, `progress` the cells beside their rows. */
export function roomPageState(frame: WatchFrame, changes: readonly WatchEvent[], header: string, panels: (env: string) => readonly AttendeePanel[] = () => [], progress?: RoomProgress): RoomPageState {
  const rows = roomRows(frame);
  const envOf = new Map(frame.exposures.map((s) => [s.label, s.env]));
  return {
    schema: 'hoplab.room/v1',
    header,
    t_ms: frame.t_ms,
    final: frame.final,
    legend: (Object.keys(ROOM_GLYPHS) as RoomCellState[]).map((state) => ({ state, glyph: ROOM_GLYPHS[state].glyph, meaning: ROOM_GLYPHS[state].meaning })),
    columns: roomColumns(rows).map((c) => ({ ...c, code: MODE_CODES[c.mode] ?? c.mode })),
    attendees: rows.map((row) => ({
      env: row.env,
      cells: row.cells.map((c) => ({ cloud: c.cloud, mode: c.mode, state: c.state, changed: c.changed === true })),
      exposures: frame.exposures
        .filter((s) => s.env === row.env)
        .map((s) => ({
          label: s.label,
          cloud: s.cloud,
          mode: s.mode,
          state: cellState(s),
          not_probed_because: s.not_probed_because,
          rps: s.rps,
          errors: errorWords(s),
          p50_ms: s.p50_ms,
          p99_ms: s.p99_ms,
          pods: Object.keys(s.pods).length,
          nodes: Object.keys(s.nodes).length,
          client_ip: verdictOf(s),
        })),
      panels: panels(row.env),
      progress: progress ? progress.cells(row.env) : [],
    })),
    changes: changes.slice(-PAGE_CHANGES).map((e) => ({ time: clockTime(e.t_ms), env: envOf.get(e.label) ?? '', label: e.label, kind: e.kind, text: e.text })),
    progress: progress ? { title: progress.title, note: progress.note, columns: progress.columns, legend: progress.legend } : null,
  };
}

const CSS = `
body { max-width: none; padding: 0.5rem 1rem 2rem; }
h1 { font-size: 1.05rem; margin: 0.1rem 0 0.1rem; }
#status { margin: 0 0 0.3rem; font-size: 0.8rem; }
main { display: flex; flex-wrap: wrap; gap: 0 1.5rem; align-items: flex-start; }
#room { flex: 0 1 auto; max-width: 30rem; }
#room table, #detail table { font-size: min(1rem, 2vh); margin: 0; }
#room th, #room td { padding: 0 0.35em; line-height: 1.15; border-color: #999; }
#room thead th { text-align: center; }
#room tbody th { text-align: left; background: #f4f4f4; }
#room tbody th button { font: inherit; background: none; border: 0; padding: 0; color: #0645ad; text-decoration: underline; cursor: pointer; }
td.cell { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-weight: bold; text-align: center; min-width: 1.6em; }
td.s-ok { color: #0b6b2b; }
td.s-errors { color: #fff; background: #b00020; }
td.s-mismatch { color: #000; background: #ffd54f; }
td.s-not-probed, td.s-pending, td.s-unmeasured { color: #444; }
td.changed { outline: 3px solid #000; outline-offset: -3px; }
#legend, #codes { font-size: 0.85rem; margin: 0.3rem 0; }
#legend span.g { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-weight: bold; padding: 0 0.25em; }
#changes { flex: 1 1 14rem; font-size: 0.8rem; }
#back { font: inherit; font-size: 0.9rem; margin-bottom: 0.5rem; }
#changes h2, #detail h2 { font-size: 1.1rem; margin: 0.3rem 0; border: 0; }
#detail h3 { font-size: 1rem; }
#changes ol { padding-left: 1.2rem; margin: 0; }
#changes li.errors-started { color: #b00020; }
.panel li.bad { color: #b00020; }
.panel li.good { color: #0b6b2b; }
.panel li.unknown { color: #7a3e00; }
td.pcell { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-weight: bold; text-align: center; min-width: 1.6em; }
#room .pfirst { border-left: 3px solid #666; }
td.p-done { color: #0b6b2b; }
td.p-not-yet, td.p-checking, td.p-not-checkable { color: #444; }
td.p-could-not-check { color: #000; background: #ffcc80; }
#progress-legend, #progress-note { font-size: 0.85rem; margin: 0.3rem 0; }
#progress-legend span.g { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-weight: bold; padding: 0 0.25em; }
`;

/**
 * The script: it reads the events of its own server (/events) and draws the state each brings.
 * No library, no request anywhere else, text set with textContent only (names come from the
 * outputs). `#env=NAME` in the address shows that attendee's detail (a click on a name sets it;
 * "the room" or Escape clears it), so a reload keeps the view.
 */
const SCRIPT = `
(function () {
  'use strict';
  var state = null;
  var source = null;
  /** What the room's table was built for: its columns and attendees. A new state with the same updates the cells in place, so a click is never lost to a redraw. */
  var shape = null;
  var $ = function (id) { return document.getElementById(id); };
  function el(tag, props, children) {
    var node = document.createElement(tag);
    Object.keys(props || {}).forEach(function (k) {
      if (k === 'text') node.textContent = props[k];
      else if (k === 'className') node.className = props[k];
      else node.setAttribute(k, props[k]);
    });
    (children || []).forEach(function (c) { if (c) node.appendChild(c); });
    return node;
  }
  function selected() {
    var m = /^#env=(.*)$/.exec(location.hash);
    return m ? decodeURIComponent(m[1]) : null;
  }
  function legendOf(s) {
    return state.legend.filter(function (l) { return l.state === s; })[0] || { glyph: '?', meaning: s };
  }
  function setCell(td, env, col, c) {
    var state = c ? c.state : '';
    var className = c ? 'cell s-' + c.state + (c.changed ? ' changed' : '') : '';
    var text = c ? legendOf(c.state).glyph : '';
    if (td.className !== className) td.className = className;
    if (td.getAttribute('data-state') !== state) td.setAttribute('data-state', state);
    if (td.textContent !== text) td.textContent = text;
    td.setAttribute('title', env + ' ' + col.cloud + ' ' + col.mode + ': ' + (c ? legendOf(c.state).meaning : 'not in this lab'));
  }
  function progressColumns() {
    return state.progress ? state.progress.columns : [];
  }
  function setProgressCell(td, env, p, i) {
    var className = 'pcell' + (i === 0 ? ' pfirst' : '') + (p && p.state ? ' p-' + p.state.replace(/ /g, '-') : '');
    if (td.className !== className) td.className = className;
    if (td.getAttribute('data-progress') !== (p ? p.state : '')) td.setAttribute('data-progress', p ? p.state : '');
    if (td.textContent !== (p ? p.glyph : '')) td.textContent = p ? p.glyph : '';
    td.setAttribute('title', env + ' ' + (p ? p.text : ''));
  }
  function buildRoom() {
    var clouds = [];
    state.columns.forEach(function (c) {
      if (clouds.length && clouds[clouds.length - 1].cloud === c.cloud) clouds[clouds.length - 1].n += 1;
      else clouds.push({ cloud: c.cloud, n: 1 });
    });
    var progress = progressColumns();
    var head = el('thead', {}, [
      el('tr', {}, [el('th', { text: '' })].concat(clouds.map(function (c) { return el('th', { colspan: String(c.n), scope: 'colgroup', text: c.cloud }); }))
        .concat(progress.length ? [el('th', { colspan: String(progress.length), scope: 'colgroup', className: 'pfirst', text: state.progress.title })] : [])),
      el('tr', {}, [el('th', { scope: 'col', text: 'attendee' })].concat(state.columns.map(function (c) { return el('th', { scope: 'col', title: c.cloud + ' ' + c.mode, text: c.code }); }))
        .concat(progress.map(function (p, i) { return el('th', { scope: 'col', className: i === 0 ? 'pfirst' : '', title: p.id, text: p.code }); })))
    ]);
    var body = el('tbody', {}, state.attendees.map(function (a) {
      var button = el('button', { type: 'button', 'data-env': a.env, text: a.env });
      button.addEventListener('click', function () { location.hash = '#env=' + encodeURIComponent(a.env); });
      return el('tr', { 'data-env': a.env }, [el('th', { scope: 'row' }, [button])].concat(state.columns.concat(progress).map(function () { return el('td'); })));
    }));
    var legend = el('p', { id: 'legend' }, state.legend.map(function (l) {
      return el('span', {}, [el('span', { className: 'g', text: l.glyph }), document.createTextNode(l.meaning + '   ')]);
    }));
    var codes = el('p', { id: 'codes', text: state.columns.filter(function (c, i, all) {
      return all.map(function (x) { return x.mode; }).indexOf(c.mode) === i;
    }).map(function (c) { return c.code + ' = ' + c.mode; }).join(',  ') });
    var room = $('room');
    room.textContent = '';
    room.appendChild(el('table', {}, [head, body]));
    room.appendChild(legend);
    room.appendChild(codes);
    if (state.progress) {
      room.appendChild(el('p', { id: 'progress-legend' }, [document.createTextNode(state.progress.title + ': ')].concat(state.progress.legend.map(function (l) {
        return el('span', {}, [el('span', { className: 'g', text: l.glyph }), document.createTextNode(l.meaning + '   ')]);
      })).concat([document.createTextNode(progress.map(function (p) { return p.code + ' = ' + p.id; }).join(',  '))])));
      room.appendChild(el('p', { id: 'progress-note', className: 'muted' }));
    }
  }
  function drawRoom() {
    var key = JSON.stringify([state.columns, progressColumns(), state.attendees.map(function (a) { return a.env; })]);
    if (key !== shape) {
      buildRoom();
      shape = key;
    }
    var rows = $('room').querySelectorAll('tbody tr');
    state.attendees.forEach(function (a, r) {
      var byColumn = {};
      a.cells.forEach(function (c) { byColumn[c.cloud + ' ' + c.mode] = c; });
      var tds = rows[r].querySelectorAll('td');
      state.columns.forEach(function (col, i) { setCell(tds[i], a.env, col, byColumn[col.cloud + ' ' + col.mode]); });
      progressColumns().forEach(function (p, i) { setProgressCell(tds[state.columns.length + i], a.env, a.progress[i], i); });
    });
    if (state.progress && $('progress-note').textContent !== state.progress.note) $('progress-note').textContent = state.progress.note;
  }
  function drawDetail(a) {
    $('detail-name').textContent = a.env;
    var cols = ['exposure', 'now', 'req/s', 'errors', 'p50 ms', 'p99 ms', 'Pods', 'nodes', 'client IP'];
    var table = el('table', { id: 'exposures' }, [
      el('thead', {}, [el('tr', {}, cols.map(function (c) { return el('th', { scope: 'col', text: c }); }))]),
      el('tbody', {}, a.exposures.map(function (e) {
        var cells = e.not_probed_because !== null
          ? [el('td', { colspan: '8', text: 'not probed: ' + e.not_probed_because })]
          : [legendOf(e.state).meaning, String(e.rps), e.errors, e.p50_ms === null ? '-' : String(e.p50_ms), e.p99_ms === null ? '-' : String(e.p99_ms), String(e.pods), String(e.nodes), e.client_ip]
              .map(function (t, i) { return el('td', { className: i === 0 ? 'cell s-' + e.state : '', text: t }); });
        return el('tr', {}, [el('th', { scope: 'row', text: e.cloud + ' ' + e.mode })].concat(cells));
      }))
    ]);
    var panels = a.panels.map(function (p) {
      return el('section', { className: 'panel' }, [el('h3', { text: p.title }), el('ul', {}, p.rows.map(function (r) {
        return el('li', { className: r.state, text: r.label + ': ' + r.text });
      }))]);
    });
    var figures = $('detail-figures');
    figures.textContent = '';
    [table].concat(panels).forEach(function (n) { figures.appendChild(n); });
  }
  function drawChanges(env) {
    var list = state.changes.filter(function (c) { return env === null || c.env === env; });
    var changes = $('changes');
    changes.textContent = '';
    changes.appendChild(el('h2', { text: env === null ? 'Changes' : 'Changes of ' + env }));
    changes.appendChild(list.length === 0 ? el('p', { className: 'muted', text: 'none yet' }) :
      el('ol', { reversed: 'reversed' }, list.slice().reverse().map(function (c) { return el('li', { className: c.kind, text: c.time + ' ' + c.label + ': ' + c.text }); })));
  }
  function draw() {
    if (!state) return;
    var env = selected();
    var attendee = state.attendees.filter(function (a) { return a.env === env; })[0];
    if (!attendee) env = null;
    $('header').textContent = state.header;
    $('room').hidden = Boolean(attendee);
    $('detail').hidden = !attendee;
    if (attendee) drawDetail(attendee);
    else drawRoom();
    drawChanges(env);
    $('status').textContent = state.final ? 'The watch has ended: this page no longer updates.' : 'Live: updated every interval.';
  }
  function connect() {
    source = new EventSource('/events');
    source.onmessage = function (event) {
      state = JSON.parse(event.data);
      if (state && state.final) source.close();
      draw();
    };
    source.onerror = function () {
      if (!state || !state.final) $('status').textContent = 'Not connected to watch: retrying (is it still running?)';
    };
  }
  $('back').addEventListener('click', function () { location.hash = ''; });
  window.addEventListener('hashchange', draw);
  document.addEventListener('keydown', function (event) { if (event.key === 'Escape' && selected() !== null) location.hash = ''; });
  connect();
})();
`;

/** The page: a heading, the status line, where the room (or an attendee) and the changes go, and the script. */
export function roomPageHtml(): string {
  return htmlPage({
    title: 'hoplab watch: the room',
    css: CSS,
    connectSelf: true,
    body: [
      '<h1 id="header">hoplab watch: the room</h1>',
      '<p id="status" class="muted">Connecting to watch...</p>',
      '<main id="main">',
      '<noscript><p>This page draws the room with script; the terminal running watch --room shows the same.</p></noscript>',
      '<section id="room" aria-label="the room"></section>',
      '<section id="detail" hidden><h2 id="detail-name"></h2><button type="button" id="back">back to the room</button><div id="detail-figures"></div></section>',
      '<section id="changes"></section>',
      '</main>',
      `<script>${SCRIPT}</script>`,
    ].join('\n'),
  });
}

/** The Content-Security-Policy the page is served with. */
export const ROOM_PAGE_CSP = SERVED_PAGE_CSP;
