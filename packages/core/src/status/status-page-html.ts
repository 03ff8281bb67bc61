/**
 * The operator page at GET /status: static HTML and one script, no build step, nothing fetched from
 * elsewhere (it works offline). The script reads status.json every few seconds and draws it; on the
 * main port that needs an operator key, which the page asks for and keeps for the browser tab only.
 */
export const statusContentSecurityPolicy =
  "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const style = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #1d2430; background: #fafbfc; }
h1 { font-size: 1.3rem; margin: 0 0 .2rem; }
h2 { font-size: 1rem; margin: 1.6rem 0 .5rem; }
.scope { color: #5b6472; margin: 0 0 1rem; }
table { border-collapse: collapse; background: #fff; min-width: 40rem; }
th, td { text-align: left; padding: .25rem .7rem; border-bottom: 1px solid #e3e6ea; vertical-align: top; }
th { font-weight: 600; background: #f0f2f5; }
.up { color: #13794b; } .ejected, .unreachable { color: #b4231d; font-weight: 600; }
.charts { display: flex; gap: 2rem; flex-wrap: wrap; }
.chart { background: #fff; border: 1px solid #e3e6ea; padding: .5rem; }
.chart p { margin: 0 0 .3rem; color: #5b6472; }
.bar { display: inline-block; height: .6rem; background: #3a6fd8; vertical-align: middle; }
.over { background: #b4231d; }
.empty { color: #5b6472; }
#key-form { display: none; margin: 1rem 0; }
#problem { color: #b4231d; }
`;

/** The page itself: the script fills every section in. */
export function statusPageHtml(): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>infergate status</title>',
    `<style>${style}</style>`,
    '</head>',
    '<body>',
    '<h1>infergate status</h1>',
    '<p class="scope" id="scope">Loading...</p>',
    '<p id="problem"></p>',
    '<form id="key-form"><label>Operator key <input id="key" type="password" autocomplete="off" size="44"></label> <button>Show</button></form>',
    '<h2>In flight</h2><p id="in-flight"></p>',
    '<h2>Upstreams</h2><div id="upstreams"></div>',
    '<h2>Traffic, last ten minutes</h2><div class="charts" id="charts"></div>',
    '<h2>Keys, last minute</h2><div id="keys"></div>',
    '<h2>Last failures</h2><div id="failures"></div>',
    '<script src="status/script.js"></script>',
    '</body>',
    '</html>',
  ].join('\n');
}

/** GET /status/script.js: renders status.json with DOM calls only (text, never HTML from the data). */
export const statusPageScript = `'use strict';
(function () {
  var refreshMs = 5000;
  var keyName = 'infergate-status-key';
  var timer;
  function el(tag, text, className) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (className) node.className = className;
    return node;
  }
  function table(headings, rows) {
    if (rows.length === 0) return el('p', 'None.', 'empty');
    var result = el('table');
    var head = el('tr');
    headings.forEach(function (heading) { head.appendChild(el('th', heading)); });
    result.appendChild(head);
    rows.forEach(function (cells) {
      var row = el('tr');
      cells.forEach(function (cell) {
        var td = el('td');
        if (cell instanceof Node) td.appendChild(cell); else td.textContent = cell === null ? '-' : String(cell);
        row.appendChild(td);
      });
      result.appendChild(row);
    });
    return result;
  }
  function replace(id, node) {
    var target = document.getElementById(id);
    target.textContent = '';
    target.appendChild(node);
  }
  function time(iso) { return iso ? new Date(iso).toLocaleTimeString() : '-'; }
  function usage(used, limit) {
    var cell = el('span');
    cell.appendChild(el('span', limit === null ? used + ' (no limit)' : used + ' of ' + limit + ' '));
    if (limit !== null && limit > 0) {
      var bar = el('span', null, used >= limit ? 'bar over' : 'bar');
      bar.style.width = Math.min(100, Math.round((used / limit) * 100)) + 'px';
      cell.appendChild(bar);
    }
    return cell;
  }
  function budget(entry) {
    if (entry === null) return null;
    var per = entry.amount + ' ' + entry.currency + ' per ' + entry.period;
    if (entry.remaining === null) return per + ' (no request here this period)';
    var cell = el('span');
    cell.appendChild(el('span', entry.remaining + ' of ' + per + ' left, resets ' +
      new Date(entry.resets_at).toLocaleString() + ' '));
    var spent = entry.amount - entry.remaining;
    var bar = el('span', null, entry.remaining <= 0 ? 'bar over' : 'bar');
    bar.style.width = Math.min(100, Math.round((spent / entry.amount) * 100)) + 'px';
    cell.appendChild(bar);
    return cell;
  }
  function chart(title, series, colors) {
    var width = 480, height = 110, count = series[0].length;
    var max = 0;
    series.forEach(function (values) { values.forEach(function (value) { if (value > max) max = value; }); });
    var svgNs = 'http://www.w3.org/2000/svg';
    var svg = document.createElementNS(svgNs, 'svg');
    svg.setAttribute('width', String(width));
    svg.setAttribute('height', String(height));
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', title);
    series.forEach(function (values, index) {
      var points = values.map(function (value, at) {
        var x = (at / Math.max(1, count - 1)) * (width - 4) + 2;
        var y = height - 2 - (max === 0 ? 0 : (value / max) * (height - 4));
        return x.toFixed(1) + ',' + y.toFixed(1);
      });
      var line = document.createElementNS(svgNs, 'polyline');
      line.setAttribute('points', points.join(' '));
      line.setAttribute('fill', 'none');
      line.setAttribute('stroke', colors[index]);
      line.setAttribute('stroke-width', '1.5');
      svg.appendChild(line);
    });
    var box = el('div', null, 'chart');
    box.appendChild(el('p', title + ' (peak ' + (Math.round(max * 10) / 10) + ')'));
    box.appendChild(svg);
    return box;
  }
  function render(status) {
    replace('scope', document.createTextNode('This replica only: ' + status.scope + ' (' +
      new Date(status.started_at).toLocaleString() + '). Updated ' + time(status.now) + '.'));
    var flight = status.in_flight;
    replace('in-flight', document.createTextNode(flight.requests + ' requests' +
      (flight.limit > 0 ? ' of ' + flight.limit + ' admitted at once' : '') + ', ' + flight.streams + ' streams open.'));
    replace('upstreams', table(
      ['upstream', 'state', 'models', 'in flight', 'failures in a row', 'last failure'],
      status.upstreams.map(function (entry) {
        var last = entry.last_failure;
        var state = el('span', entry.state + (entry.ejected_for_ms > 0 ? ' (' + Math.ceil(entry.ejected_for_ms / 1000) + ' s more)' : ''), entry.state);
        return [entry.upstream, state, entry.models.join(', '), entry.in_flight, entry.consecutive_failures,
          last === null ? null : time(last.at) + ': ' + last.status + ' ' + last.cause];
      })));
    var buckets = status.traffic.buckets, seconds = status.traffic.bucket_seconds;
    var charts = el('div', null, 'charts');
    charts.appendChild(chart('Requests per second (blue), 5xx per second (red)', [
      buckets.map(function (b) { return b.requests / seconds; }),
      buckets.map(function (b) { return b.server_errors / seconds; })
    ], ['#3a6fd8', '#b4231d']));
    charts.appendChild(chart('Time to first byte in ms: average (blue), slowest (grey)', [
      buckets.map(function (b) { return b.first_byte_ms_avg; }),
      buckets.map(function (b) { return b.first_byte_ms_max; })
    ], ['#3a6fd8', '#9aa3ae']));
    replace('charts', charts);
    replace('keys', table(['key', 'requests', 'tokens', 'concurrent limit', 'budget'], status.keys.map(function (key) {
      return [key.name, usage(key.last_minute.requests, key.limits.requests_per_minute),
        usage(key.last_minute.tokens, key.limits.tokens_per_minute), key.limits.concurrent_requests,
        budget(key.budget)];
    })));
    replace('failures', table(['time', 'route', 'status', 'model', 'upstream', 'cause'],
      status.failures.map(function (entry) {
        return [time(entry.at), entry.route, entry.status, entry.model, entry.upstream, entry.cause];
      })));
  }
  function load() {
    var key = sessionStorage.getItem(keyName);
    var headers = key ? { authorization: 'Bearer ' + key } : {};
    fetch('status.json', { headers: headers, cache: 'no-store' }).then(function (response) {
      if (response.status === 401 || response.status === 403) {
        document.getElementById('key-form').style.display = 'block';
        replace('problem', document.createTextNode(key ? 'That key does not open this page: an operator key does.' : 'This port needs an operator key.'));
        return undefined;
      }
      if (!response.ok) throw new Error('status.json answered ' + response.status);
      document.getElementById('key-form').style.display = 'none';
      replace('problem', document.createTextNode(''));
      return response.json().then(render);
    }).catch(function (error) {
      replace('problem', document.createTextNode('Could not load status.json: ' + error.message));
    }).then(function () {
      clearTimeout(timer);
      timer = setTimeout(load, refreshMs);
    });
  }
  document.getElementById('key-form').addEventListener('submit', function (event) {
    event.preventDefault();
    sessionStorage.setItem(keyName, document.getElementById('key').value.trim());
    clearTimeout(timer);
    load();
  });
  load();
})();
`;
