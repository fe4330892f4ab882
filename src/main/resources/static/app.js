// The extender's page: pending pods, a pod's explanation (summary, preemption what-if, scores, filter matrix),
// a pasted pod, and the nodes. Everything comes from the extender's read-only JSON endpoints; text from the cluster
// is always set as text, never as markup.
'use strict';

const NODES_PER_PAGE = 50;
const MATRIX_ROWS_PER_PAGE = 100;
const SCORE_ROWS = 50;

const state = { explanation: null, matrixPage: 0, nodesOffset: 0 };

function $(selector) {
  return document.querySelector(selector);
}

/** An element with attributes (class, data-*, ...) and children (strings become text). */
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== null && v !== undefined) {
      e.setAttribute(k, v);
    }
  }
  for (const c of children) {
    e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

async function fetchJson(url, options) {
  const response = await fetch(url, options);
  let body = null;
  try {
    body = await response.json();
  } catch (e) {
    body = null;
  }
  if (!response.ok) {
    throw new Error(body && body.Error ? body.Error : response.status + ' ' + response.statusText);
  }
  return body;
}

function cpu(milli) {
  return (milli / 1000).toLocaleString(undefined, { maximumFractionDigits: 2 });
}

function memory(bytes) {
  const gi = bytes / 1024 ** 3;
  return gi >= 1 ? gi.toFixed(1) + ' Gi' : Math.round(bytes / 1024 ** 2) + ' Mi';
}

function bar(used, total, label) {
  const pct = total > 0 ? Math.min(100, (100 * used) / total) : 0;
  const fill = el('span', { class: pct > 85 ? 'high' : null, style: 'width:' + pct.toFixed(0) + '%' });
  return el('td', {}, el('span', { class: 'bar' }, fill), label);
}

// ------------------------------------------------------------------------------------------------ pending pods

async function loadPending() {
  const data = await fetchJson('debug/pending-pods');
  const body = $('#pending tbody');
  body.replaceChildren();
  $('#pending-empty').hidden = data.total > 0;
  for (const p of data.pods) {
    const button = el('button', { type: 'button', class: 'explain-pod' }, 'Explain');
    button.addEventListener('click', () => explainByName(p.namespace, p.name));
    body.append(el('tr', { 'data-pod': p.pod },
      el('td', {}, p.pod),
      el('td', { class: 'num' }, p.priority),
      el('td', {}, p.nominatedNode || '—'),
      el('td', { class: 'num' }, cpu(p.milliCpu)),
      el('td', { class: 'num' }, memory(p.memory)),
      el('td', {}, button)));
  }
  const more = $('#pending-more');
  more.hidden = data.total <= data.pods.length;
  more.textContent = '… and ' + (data.total - data.pods.length) + ' more pending pods';
}

// ------------------------------------------------------------------------------------------------- explaining

function explainPath(namespace, name) {
  return 'scheduler/explain/' + encodeURIComponent(namespace) + '/' + encodeURIComponent(name);
}

async function explainByName(namespace, name) {
  // The hash makes the explanation a link to share; loading the page with it explains the pod again.
  history.replaceState(null, '', '#pod=' + encodeURIComponent(namespace) + '/' + encodeURIComponent(name));
  try {
    const e = await fetchJson(explainPath(namespace, name));
    showExplanation(e, explainPath(namespace, name) + '?format=text');
  } catch (err) {
    showExplainError(namespace + '/' + name, err);
  }
}

async function explainPasted() {
  const text = $('#paste').value.trim();
  $('#paste-error').textContent = '';
  if (!text) {
    $('#paste-error').textContent = 'Paste a Pod first.';
    return;
  }
  const json = text.startsWith('{');
  try {
    const e = await fetchJson('scheduler/explain', {
      method: 'POST',
      headers: { 'Content-Type': json ? 'application/json' : 'application/yaml', Accept: 'application/json' },
      body: text,
    });
    showExplanation(e, null);
  } catch (err) {
    $('#paste-error').textContent = err.message;
  }
}

function showExplainError(what, err) {
  $('#explain-section').hidden = false;
  $('#explain-title').textContent = what;
  $('#summary').textContent = err.message;
  $('#summary').className = 'summary';
}

function showExplanation(e, textLink) {
  state.explanation = e;
  state.matrixPage = 0;
  $('#explain-section').hidden = false;
  $('#explain-title').textContent = e.pod;
  const bound = $('#bound');
  bound.hidden = !e.boundNode;
  bound.textContent = e.boundNode
    ? 'Bound to ' + e.boundNode + '; explained as if it were not ('
      + (e.feasibleNodes.includes(e.boundNode) ? 'it would still fit there' : 'it would not fit there now') + ').'
    : '';
  $('#summary').textContent = e.summary;
  $('#summary').className = e.feasibleNodes.length > 0 ? 'summary fits' : 'summary';
  const link = $('#as-text');
  link.hidden = !textLink;
  if (textLink) {
    link.href = textLink;
  }
  renderPreemption(e);
  renderScores(e);
  renderMatrix();
  $('#explain-section').scrollIntoView({ block: 'start' });
}

function renderPreemption(e) {
  const box = $('#preemption');
  box.replaceChildren();
  const p = e.preemption;
  if (e.error) {
    box.append(el('p', { class: 'error' }, e.error));
  } else if (e.feasibleNodes.length > 0) {
    box.append(el('p', { class: 'muted' }, 'Not needed: ' + e.feasibleNodes.length + ' node(s) fit.'));
  } else if (!p) {
    box.append(el('p', { class: 'muted' }, 'Not tried: the profile has no PostFilter plugin.'));
  } else if (p.nominatedNode) {
    const list = el('ul', {});
    for (const v of p.victims) {
      list.append(el('li', {}, v.pod + ' (priority ' + v.priority + ')'));
    }
    box.append(el('p', { id: 'preemption-result' }, 'Would nominate ', el('strong', {}, p.nominatedNode),
      ' and evict ' + p.victims.length + ' pod(s):'), list);
  } else {
    box.append(el('p', { id: 'preemption-result' }, 'Cannot help: ' + (p.reasons.join(', ') || p.code)));
  }
}

function renderScores(e) {
  const feasible = e.nodes.filter((n) => n.feasible && n.totalScore !== null)
    .sort((a, b) => b.totalScore - a.totalScore || a.node.localeCompare(b.node));
  $('#scores-empty').hidden = feasible.length > 0;
  const head = $('#scores thead');
  const body = $('#scores tbody');
  head.replaceChildren();
  body.replaceChildren();
  if (feasible.length === 0) {
    return;
  }
  const row = el('tr', {}, el('th', {}, 'node'), el('th', {}, 'total'), el('th', {}, 'extender (0-10)'));
  for (const s of e.scorePlugins) {
    row.append(el('th', { title: 'weight ' + s.weight }, s.plugin + ' ×' + s.weight));
  }
  head.append(row);
  for (const n of feasible.slice(0, SCORE_ROWS)) {
    const tr = el('tr', { 'data-node': n.node, class: e.bestNodes.includes(n.node) ? 'feasible' : null },
      el('td', {}, n.node), el('td', { class: 'num' }, n.totalScore), el('td', { class: 'num' }, n.extenderScore));
    const byPlugin = new Map(n.scores.map((s) => [s.plugin, s]));
    for (const s of e.scorePlugins) {
      const score = byPlugin.get(s.plugin);
      tr.append(el('td', { class: 'num', title: score ? 'raw ' + score.raw + ', normalized ' + score.normalized : null },
        score ? score.weighted : '—'));
    }
    body.append(tr);
  }
  const more = $('#scores-more');
  more.hidden = feasible.length <= SCORE_ROWS;
  more.textContent = '… and ' + (feasible.length - SCORE_ROWS) + ' more feasible nodes';
}

/** The matrix columns: the profile's filter plugins, then any other plugin a status names (a PreFilter). */
function matrixColumns(e) {
  const columns = [...e.filterPlugins];
  for (const n of e.nodes) {
    for (const f of n.filters) {
      const name = f.plugin || 'PreFilter';
      if (!columns.includes(name)) {
        columns.push(name);
      }
    }
  }
  return columns;
}

function matrixRows(e) {
  const show = $('#matrix-show').value;
  const contains = $('#matrix-node').value.trim();
  return e.nodes.filter((n) => (show === 'all' || (show === 'feasible') === n.feasible)
    && (!contains || n.node.includes(contains)));
}

function renderMatrix() {
  const e = state.explanation;
  if (!e) {
    return;
  }
  const columns = matrixColumns(e);
  const rows = matrixRows(e);
  const pages = Math.max(1, Math.ceil(rows.length / MATRIX_ROWS_PER_PAGE));
  state.matrixPage = Math.min(state.matrixPage, pages - 1);
  const start = state.matrixPage * MATRIX_ROWS_PER_PAGE;
  $('#matrix-page').textContent = 'nodes ' + (rows.length === 0 ? 0 : start + 1) + '–'
    + Math.min(rows.length, start + MATRIX_ROWS_PER_PAGE) + ' of ' + rows.length;
  $('#matrix-prev').disabled = state.matrixPage === 0;
  $('#matrix-next').disabled = state.matrixPage >= pages - 1;
  const head = el('tr', {}, el('th', {}, 'node'));
  for (const c of columns) {
    head.append(el('th', {}, c));
  }
  $('#matrix thead').replaceChildren(head);
  const body = $('#matrix tbody');
  body.replaceChildren();
  for (const n of rows.slice(start, start + MATRIX_ROWS_PER_PAGE)) {
    const byPlugin = new Map(n.filters.map((f) => [f.plugin || 'PreFilter', f]));
    const tr = el('tr', { 'data-node': n.node, class: n.feasible ? 'feasible' : null }, el('td', {}, n.node));
    for (const c of columns) {
      const f = byPlugin.get(c);
      if (!f) {
        tr.append(el('td', { class: 'skip', 'data-plugin': c, title: 'not run or skipped' }, '—'));
      } else if (f.code === 'Success') {
        tr.append(el('td', { class: 'pass', 'data-plugin': c }, '✓'));
      } else {
        const unresolvable = f.code === 'UnschedulableAndUnresolvable';
        const cell = el('td', { class: 'fail' + (unresolvable ? ' unresolvable' : ''), 'data-plugin': c, title: f.code },
          f.reasons.join(', ') || f.code);
        if (f.detail && f.detail.lines.length > 0) {
          // What the plugin found out on this node (DynamicResources: the claim and request, the devices, the
          // first failing selector), below its reason.
          const lines = el('div', { class: 'detail' });
          for (const line of f.detail.lines) {
            lines.append(el('div', {}, line));
          }
          cell.append(lines);
        }
        tr.append(cell);
      }
    }
    body.append(tr);
  }
}

// ------------------------------------------------------------------------------------------------------- nodes

async function loadNodes() {
  const filter = $('#node-filter').value.trim();
  const data = await fetchJson('debug/overview?offset=' + state.nodesOffset + '&limit=' + NODES_PER_PAGE
    + (filter ? '&name=' + encodeURIComponent(filter) : ''));
  $('#source').textContent = data.nodes + ' nodes, ' + data.pods + ' pods on them, ' + data.pendingPods
    + ' pending; CPU ' + cpu(data.requested.milliCpu) + ' of ' + cpu(data.allocatable.milliCpu) + ' requested, memory '
    + memory(data.requested.memory) + ' of ' + memory(data.allocatable.memory) + '. Source: ' + data.source
    + (data.ready ? '' : ' (not ready yet)');
  $('#nodes-page').textContent = 'nodes ' + (data.matchingNodes === 0 ? 0 : data.offset + 1) + '–'
    + Math.min(data.matchingNodes, data.offset + NODES_PER_PAGE) + ' of ' + data.matchingNodes;
  $('#nodes-prev').disabled = data.offset === 0;
  $('#nodes-next').disabled = data.offset + NODES_PER_PAGE >= data.matchingNodes;
  const body = $('#nodes tbody');
  body.replaceChildren();
  for (const n of data.nodeList) {
    const pods = el('details', {}, el('summary', {}, n.requested.pods + ' / ' + n.allocatable.pods));
    pods.append(el('div', {}, n.pods.join(', ') || 'no pods'));
    body.append(el('tr', { 'data-node': n.node },
      el('td', {}, n.node + (n.unschedulable ? ' (cordoned)' : '')),
      el('td', {}, n.zone || '—'),
      bar(n.requested.milliCpu, n.allocatable.milliCpu,
        cpu(n.requested.milliCpu) + ' / ' + cpu(n.allocatable.milliCpu)),
      bar(n.requested.memory, n.allocatable.memory, memory(n.requested.memory) + ' / ' + memory(n.allocatable.memory)),
      el('td', {}, pods),
      el('td', {}, n.taints.join(', ') || '—')));
  }
}

// ------------------------------------------------------------------------------------------------------ wiring

function wire() {
  $('#paste-explain').addEventListener('click', explainPasted);
  $('#matrix-show').addEventListener('change', () => { state.matrixPage = 0; renderMatrix(); });
  $('#matrix-node').addEventListener('input', () => { state.matrixPage = 0; renderMatrix(); });
  $('#matrix-prev').addEventListener('click', () => { state.matrixPage--; renderMatrix(); });
  $('#matrix-next').addEventListener('click', () => { state.matrixPage++; renderMatrix(); });
  $('#node-filter').addEventListener('input', () => { state.nodesOffset = 0; loadNodes().catch(showLoadError); });
  $('#nodes-prev').addEventListener('click', () => {
    state.nodesOffset = Math.max(0, state.nodesOffset - NODES_PER_PAGE);
    loadNodes().catch(showLoadError);
  });
  $('#nodes-next').addEventListener('click', () => {
    state.nodesOffset += NODES_PER_PAGE;
    loadNodes().catch(showLoadError);
  });
}

function showLoadError(err) {
  $('#source').textContent = 'Cannot read the extender: ' + err.message;
  $('#source').className = 'error';
}

/** The pod named by a {@code #pod=namespace/name} hash, or null. */
function podFromHash() {
  const m = /^#pod=([^/]+)\/(.+)$/.exec(location.hash);
  return m ? { namespace: decodeURIComponent(m[1]), name: decodeURIComponent(m[2]) } : null;
}

wire();
Promise.all([loadPending(), loadNodes()]).then(async () => {
  const pod = podFromHash();
  if (pod) {
    await explainByName(pod.namespace, pod.name);
  }
  document.body.setAttribute('data-loaded', 'true');
}).catch(showLoadError);
