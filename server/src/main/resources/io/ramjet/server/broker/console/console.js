// The Ramjet web console: polls the broker's JSON API every two seconds, shows the rates of the
// last minutes that the broker keeps (/api/history) in a uPlot chart, and the table's rates from
// the counters' deltas between two polls. Data is put in the page as text only (textContent),
// never as markup.
'use strict';

const POLL_MS = 2000;
const ALL = '';

const rates = new Map();      // destination key -> {enqueued, acknowledged, at} of the last poll
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

function create(event) {
  event.preventDefault();
  const kind = $('#create-kind').value;
  const name = $('#create-name').value.trim();
  if (name && confirm('Create ' + kind.toLowerCase() + ' ' + name + '?')) {
    run('create ' + name, action('/api/create', {kind, name}));
  }
}

function remove(d) {
  if (confirm('Delete ' + d.kind.toLowerCase() + ' ' + d.name + ' with its subscriptions and messages?')) {
    run('delete ' + d.name, action('/api/delete', {kind: d.kind, name: d.name}));
  }
}

function purgeDurable(s) {
  if (confirm('Purge the durable subscription ' + s.name + ' of client ' + s.clientId + '?')) {
    run('purge ' + s.name, action('/api/purge', {clientId: s.clientId, subscription: s.name}));
  }
}

function ratesOf(destinations, at) {
  const out = new Map();
  for (const d of destinations) {
    const last = rates.get(key(d));
    let enq = null;
    let deq = null;
    if (last && at > last.at) {
      const seconds = (at - last.at) / 1000;
      enq = Math.max(0, (d.enqueued - last.enqueued) / seconds);
      deq = Math.max(0, (d.acknowledged - last.acknowledged) / seconds);
    }
    rates.set(key(d), {enqueued: d.enqueued, acknowledged: d.acknowledged, at});
    out.set(key(d), {enq, deq});
  }
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
    if (!d.temporary) {
      button(actions, 'delete', 'delete', () => remove(d));
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

function showConnections(connections) {
  rows('#connections', connections, (row, c) => {
    row.dataset.address = c.address;
    cell(row, c.address, null, 'address');
    cell(row, c.user === null ? '(anonymous)' : c.user, null, 'user');
    cell(row, c.member, null, 'member');
    cell(row, c.tls ? 'yes' : 'no', null, 'tls');
    number(row, c.consumers, 'consumers');
    number(row, c.sends, 'sends');
  });
}

function showProducers(producers) {
  rows('#producers', producers, (row, p) => {
    row.dataset.destination = p.destination;
    cell(row, p.connection, null, 'connection');
    cell(row, p.user === null ? '(anonymous)' : p.user, null, 'user');
    cell(row, p.destination, null, 'destination');
    cell(row, p.kind, null, 'kind');
    number(row, p.sends, 'sends');
  });
}

function showCluster(cluster) {
  const g = cluster.group;
  $('#group').textContent = 'group ' + g.name + ' of cluster ' + g.cluster + ': this broker (id ' + g.brokerId
      + ', ' + g.address + ') is its ' + g.role + ', epoch ' + g.epoch
      + (g.master ? ', following master ' + g.master : '') + '; '
      + (g.role === 'MASTER' ? g.slaves.length + ' slave(s) fetching' : 'slave');
  $('#group').dataset.role = g.role;
  rows('#slaves', g.slaves, (row, s) => {
    row.dataset.slave = s.brokerId;
    number(row, s.brokerId, 'id');
    number(row, s.flushedOffset, 'flushed');
    number(row, s.lagBytes, 'lag');
    cell(row, s.inSync ? 'yes' : 'no', null, 'inSync');
  });
  const registered = [];
  for (const n of cluster.nameServers) {
    if (n.error !== null) {
      registered.push({nameServer: n.address, cluster: '', group: n.error, brokerId: null, address: ''});
    }
    for (const b of n.brokers) {
      registered.push(Object.assign({nameServer: n.address}, b));
    }
  }
  rows('#registered', registered, (row, b) => {
    row.dataset.group = b.group;
    cell(row, b.nameServer, null, 'nameServer');
    cell(row, b.cluster, null, 'cluster');
    cell(row, b.group, null, 'group');
    cell(row, b.brokerId === null ? '' : (b.brokerId === 0 ? 'yes' : 'no (id ' + b.brokerId + ')'), null, 'master');
    cell(row, b.address, null, 'address');
  });
}

// The broker's history: seconds for uPlot's time axis, enqueue solid blue, dequeue dashed orange
// drawn over it, so that equal rates still show both lines.
function drawChart(series) {
  const data = [series.t.map((t) => t / 1000), series.enqueue, series.dequeue];
  $('#chart').dataset.points = String(series.t.length);
  if (typeof uPlot === 'undefined') {
    $('#chart').textContent = 'the chart library (uPlot WebJar) is not on the broker\'s class path';
    return;
  }
  if (!chart) {
    chart = new uPlot({
      width: Math.max(400, $('#chart').clientWidth - 16),
      height: 220,
      series: [{}, {label: 'enqueue/s', stroke: '#1f6feb', width: 2},
        {label: 'dequeue/s', stroke: '#d4731b', width: 3, dash: [8, 5]}],
      // uPlot's own time axis: it spaces and shortens the labels to fit
      axes: [{}, {label: 'messages/s'}],
      scales: {x: {time: true}},
    }, data, $('#chart'));
  } else {
    chart.setData(data);
  }
}

async function refreshChart() {
  try {
    drawChart(await api('/api/history?' + new URLSearchParams({destination: $('#chart-for').value})));
  } catch (e) {
    status('history failed: ' + e.message);
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
    const [broker, destinations, subscriptions, consumers, connections, producers, cluster] = await Promise.all([
      api('/api/broker'), api('/api/destinations'), api('/api/subscriptions'), api('/api/consumers'),
      api('/api/connections'), api('/api/producers'), api('/api/cluster')]);
    const at = Date.now();
    $('#broker').textContent = 'broker ' + broker.brokerName + ' at ' + broker.address + ', version '
        + broker.version + ', up ' + Math.round(broker.uptimeMillis / 1000) + ' s, disk '
        + Math.round(100 * (1 - broker.diskUsableBytes / broker.diskTotalBytes)) + '% used';
    showDestinations(destinations, ratesOf(destinations, at));
    showSubscriptions(subscriptions);
    showConsumers(consumers);
    showConnections(connections);
    showProducers(producers);
    showCluster(cluster);
    await refreshChart();
    $('#refreshed').textContent = 'refreshed ' + new Date(at).toLocaleTimeString();
  } catch (e) {
    status('refresh failed: ' + e.message);
  }
}

$('#chart-for').addEventListener('change', refreshChart);
$('#create').addEventListener('submit', create);
$('#browse-next').addEventListener('click', browsePage);
$('#browse-close').addEventListener('click', () => {
  browsing = null;
  $('#browser').hidden = true;
});
refresh();
setInterval(refresh, POLL_MS);
