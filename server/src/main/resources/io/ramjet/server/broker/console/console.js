// The Ramjet web console: polls the broker's JSON API every two seconds, computes the enqueue and
// dequeue rates from the counters' deltas, and charts them with uPlot. Data is put in the page as
// text only (textContent), never as markup.
'use strict';

const POLL_MS = 2000;
const POINTS = 150;
const ALL = '';

const rates = new Map();      // destination key -> {enqueued, acknowledged, at} of the last poll
const history = new Map();    // destination key ('' for all) -> {t: [], enq: [], deq: []}
let chart = null;
let browsing = null;          // {destination, queue, offset, end}

const $ = (selector) => document.querySelector(selector);
const key = (d) => d.kind + ':' + d.name;

// From the origin, which leaves out credentials the page's own address may carry (fetch refuses those).
async function api(path, options) {
  const response = await fetch(location.origin + path, Object.assign({cache: 'no-store', credentials: 'same-origin'}, options));
  const body = await response.json().catch(() => ({error: response.statusText}));
  if (!response.ok) {
    throw new Error(body.error || ('HTTP ' + response.status));
  }
  return body;
}

function action(path, params) {
  return api(path + '?' + new URLSearchParams(params),
      {method: 'POST', headers: {'X-Ramjet-Console': 'true'}});
}

function cell(row, value, className, field) {
  const td = row.insertCell();
  td.textContent = value === null || value === undefined ? '' : String(value);
  if (className) td.className = className;
  if (field) td.dataset.field = field;
  return td;
}

function number(row, value, field) {
  return cell(row, typeof value === 'number' ? value.toLocaleString('en') : value, 'number', field);
}

function button(td, label, className, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.className = className;
  b.addEventListener('click', onClick);
  td.appendChild(b);
}

function status(message) {
  $('#status').textContent = message || '';
}

async function run(what, promise) {
  try {
    const result = await promise;
    status(what + ': ' + JSON.stringify(result));
    await refresh();
  } catch (e) {
    status(what + ' failed: ' + e.message);
  }
}

function purge(d) {
  if (confirm('Purge every message of queue ' + d.name + ' that no consumer holds?')) {
    run('purge ' + d.name, action('/api/purge', {destination: d.name}));
  }
}

function move(d) {
  const to = prompt('Move the messages of ' + d.name + ' to which destination? '
      + '(empty: each back to its original destination)');
  if (to !== null) {
    const params = {from: d.name};
    if (to.trim()) params.to = to.trim();
    run('move ' + d.name, action('/api/move', params));
  }
}

function purgeDurable(s) {
  if (confirm('Purge the durable subscription ' + s.name + ' of client ' + s.clientId + '?')) {
    run('purge ' + s.name, action('/api/purge', {clientId: s.clientId, subscription: s.name}));
  }
}

function record(k, at, enq, deq) {
  let h = history.get(k);
  if (!h) {
    h = {t: [], enq: [], deq: []};
    history.set(k, h);
  }
  h.t.push(at);
  h.enq.push(enq);
  h.deq.push(deq);
  if (h.t.length > POINTS) {
    h.t.shift();
    h.enq.shift();
    h.deq.shift();
  }
}

function ratesOf(destinations, at) {
  const out = new Map();
  let totalEnq = 0;
  let totalDeq = 0;
  for (const d of destinations) {
    const last = rates.get(key(d));
    let enq = null;
    let deq = null;
    if (last && at > last.at) {
      const seconds = (at - last.at) / 1000;
      enq = Math.max(0, (d.enqueued - last.enqueued) / seconds);
      deq = Math.max(0, (d.acknowledged - last.acknowledged) / seconds);
      totalEnq += enq;
      totalDeq += deq;
    }
    rates.set(key(d), {enqueued: d.enqueued, acknowledged: d.acknowledged, at});
    out.set(key(d), {enq, deq});
    record(key(d), at / 1000, enq, deq);
  }
  record(ALL, at / 1000, totalEnq, totalDeq);
  return out;
}

function showDestinations(destinations, now) {
  rows('#destinations', destinations, (row, d) => {
    const r = now.get(key(d));
    row.dataset.destination = d.name;
    row.dataset.kind = d.kind;
    if (browsing && browsing.destination === d.name && d.kind === 'QUEUE') row.className = 'selected';
    cell(row, d.name + (d.temporary ? ' (temporary)' : ''), null, 'name');
    cell(row, d.kind, null, 'kind');
    number(row, d.ready, 'ready');
    number(row, d.inFlight, 'inFlight');
    number(row, d.redelivering, 'redelivering');
    number(row, d.delayed, 'delayed');
    number(row, d.enqueued, 'enqueued');
    number(row, d.acknowledged, 'acknowledged');
    number(row, r.enq === null ? '' : Math.round(r.enq * 10) / 10, 'enqueueRate');
    number(row, r.deq === null ? '' : Math.round(r.deq * 10) / 10, 'dequeueRate');
    number(row, d.consumers, 'consumers');
    const actions = row.insertCell();
    if (d.kind === 'QUEUE') {
      button(actions, 'browse', 'browse', () => browse(d.name));
      button(actions, 'purge', 'purge', () => purge(d));
      button(actions, 'move', 'move', () => move(d));
    }
  });
  const select = $('#chart-for');
  const names = [ALL, ...destinations.map(key)];
  const shown = [...select.options].map((o) => o.value);
  if (names.join('\n') !== shown.join('\n')) {
    const chosen = select.value;
    select.replaceChildren(...names.map((k) => new Option(k === ALL ? 'all destinations' : k, k)));
    select.value = names.includes(chosen) ? chosen : ALL;
  }
}

// Replaces the rows of a table by one a item, each filled by fill(row, item).
function rows(table, items, fill) {
  const body = $(table + ' tbody');
  body.replaceChildren();
  for (const item of items) {
    fill(body.insertRow(), item);
  }
}

function showSubscriptions(subscriptions) {
  rows('#subscriptions', subscriptions, (row, s) => {
    cell(row, s.destination);
    cell(row, s.kind);
    cell(row, s.clientId);
    cell(row, s.name);
    cell(row, s.selector, 'text');
    number(row, s.consumers);
    number(row, s.backlog);
    number(row, s.inFlight);
    const actions = row.insertCell();
    if (s.kind.startsWith('DURABLE') && s.clientId) {
      button(actions, 'purge', 'purge', () => purgeDurable(s));
    }
  });
}

function showConsumers(consumers) {
  rows('#consumers', consumers, (row, c) => {
    number(row, c.id);
    cell(row, c.connection);
    cell(row, c.destination);
    cell(row, c.subscription);
    cell(row, c.selector, 'text');
  });
}

function drawChart() {
  const h = history.get($('#chart-for').value) || {t: [], enq: [], deq: []};
  const data = [h.t, h.enq, h.deq];
  if (typeof uPlot === 'undefined') {
    $('#chart').textContent = 'the chart library (uPlot WebJar) is not on the broker\'s class path';
    return;
  }
  if (!chart) {
    chart = new uPlot({
      width: Math.max(400, $('#chart').clientWidth - 16),
      height: 220,
      series: [{}, {label: 'enqueue/s', stroke: '#1f6feb', width: 2},
        {label: 'dequeue/s', stroke: '#2da44e', width: 2}],
      // uPlot's own time axis: it spaces and shortens the labels to fit
      axes: [{}, {label: 'messages/s'}],
      scales: {x: {time: true}},
    }, data, $('#chart'));
  } else {
    chart.setData(data);
  }
}

async function browse(destination) {
  browsing = {destination, queue: 0, offset: 0, end: false};
  $('#messages tbody').replaceChildren();
  await browsePage();
}

async function browsePage() {
  if (!browsing || browsing.end) return;
  try {
    const page = await api('/api/browse?' + new URLSearchParams({destination: browsing.destination,
      queue: browsing.queue, offset: browsing.offset, limit: 50}));
    $('#browser').hidden = false;
    $('#browsing').textContent = page.destination;
    const body = $('#messages tbody');
    for (const m of page.messages) {
      const row = body.insertRow();
      cell(row, m.queueId + '/' + m.offset);
      cell(row, m.messageId, 'text');
      cell(row, m.timestamp ? new Date(m.timestamp).toISOString() : '');
      number(row, m.deliveryCount);
      cell(row, m.bodyType + (m.type ? ' ' + m.type : ''));
      cell(row, m.text !== null ? m.text : m.bodySize + ' bytes' + (m.large ? ', large' : ''), 'text');
      cell(row, JSON.stringify(m.properties), 'text');
    }
    Object.assign(browsing, {queue: page.nextQueue, offset: page.nextOffset, end: page.end});
    $('#browse-next').disabled = page.end;
  } catch (e) {
    status('browse failed: ' + e.message);
  }
}

async function refresh() {
  try {
    const [broker, destinations, subscriptions, consumers] = await Promise.all([
      api('/api/broker'), api('/api/destinations'), api('/api/subscriptions'), api('/api/consumers')]);
    const at = Date.now();
    $('#broker').textContent = 'broker ' + broker.brokerName + ' at ' + broker.address + ', version '
        + broker.version + ', up ' + Math.round(broker.uptimeMillis / 1000) + ' s, disk '
        + Math.round(100 * (1 - broker.diskUsableBytes / broker.diskTotalBytes)) + '% used';
    showDestinations(destinations, ratesOf(destinations, at));
    showSubscriptions(subscriptions);
    showConsumers(consumers);
    drawChart();
    $('#refreshed').textContent = 'refreshed ' + new Date(at).toLocaleTimeString();
  } catch (e) {
    status('refresh failed: ' + e.message);
  }
}

$('#chart-for').addEventListener('change', drawChart);
$('#browse-next').addEventListener('click', browsePage);
$('#browse-close').addEventListener('click', () => {
  browsing = null;
  $('#browser').hidden = true;
});
refresh();
setInterval(refresh, POLL_MS);
