// ej mcp driven by the official MCP TypeScript SDK's client, as an agent's host drives it: initialize,
// list tools and resources, call every tool (the SDK checks each structuredContent against the
// tool's outputSchema), a long run through run and repeated wait, cancel, malformed requests, an
// unknown tool, a damaged journal, the bound of every call, and a client that disconnects mid-call
// (the detached run goes on, nothing is lost).
//
//   node mcp_client_test.mjs EJ_BINARY
//
// Exit 0 when every step passed, 1 otherwise (each step says what it checked).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LATEST_PROTOCOL_VERSION, McpError } from '@modelcontextprotocol/sdk/types.js';

import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ej = process.argv[2];
if (!ej || !fs.existsSync(ej)) {
  console.error(`usage: node mcp_client_test.mjs EJ_BINARY (not found: ${ej})`);
  process.exit(1);
}

const EXPECTED_TOOLS = ['try', 'status', 'note', 'log', 'search', 'show', 'why', 'judge', 'bench_list',
  'bench_show', 'runs', 'run', 'calibrate', 'wait', 'cancel', 'compare', 'plan_render'];

let failures = 0;
const keep = [];

async function step(name, body) {
  try {
    await body();
    console.log(`ok: ${name}`);
  } catch (error) {
    failures += 1;
    console.log(`FAILED: ${name}\n  ${error.stack ?? error}`);
  }
}

function sh(cwd, command, args, env = {}) {
  return execFileSync(command, args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'] });
}

// A git repository with a journal: a plan, benchmarks, and a baseline run.
function make_repository(name) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ej-mcp-${name}-`));
  keep.push(dir);
  sh(dir, 'git', ['init', '-q']);
  sh(dir, 'git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m',
    'init']);
  sh(dir, ej, ['init']);
  sh(dir, ej, ['plan', 'new', 'p', '--title', 'MCP plan', '--target', 't < 200']);
  // A value that varies a little, so that comparisons have something to test; a random figure in
  // microseconds, not the shell's own time (--no-check-times), so that a loaded machine's wall time
  // flags no verdict whose t happened to improve.
  sh(dir, ej, ['bench', 'add', 'noisy', '--repeat', '5', '--metric', 't=kv:t', '--unit', 't=us',
    '--no-check-times', '--shell',
    'echo "t: 1$(od -An -N1 -tu1 /dev/urandom | tr -d " ")"']);
  // Repeats of 0.3 s: a run long enough to be waited for several times.
  sh(dir, ej, ['bench', 'add', 'paced', '--repeat', '6', '--shell', 'sleep 0.3']);
  // Each repeat waits for the file $GATE (the run's --env): a run that goes on until told.
  sh(dir, ej, ['bench', 'add', 'gated', '--repeat', '3', '--shell',
    'while [ ! -e "$GATE" ]; do sleep 0.02; done; echo done']);
  sh(dir, ej, ['run', 'noisy', '--quiet']);
  sh(dir, ej, ['plan', 'baseline', 'p', '--run', '1']);
  return dir;
}

// Runs hold this machine's GPU lock while they go: one that a failed step left waiting for its gate
// would stall every later run here, this test's and others'.
function cancel_runs_left() {
  for (const dir of keep) {
    try {
      for (const run of JSON.parse(sh(dir, ej, ['runs', '--running', '--json']))) {
        sh(dir, ej, ['cancel', String(run.number)]);
      }
    } catch {
      // a damaged journal, or a run that ended meanwhile: nothing to stop
    }
  }
}

async function connect(cwd, env = {}) {
  const transport = new StdioClientTransport({ command: ej, args: ['mcp'], cwd,
    env: { ...process.env, ...env }, stderr: 'pipe' });
  transport.stderr?.on('data', () => {}); // ej's own lines: read, never mixed with the protocol
  const client = new Client({ name: 'ej-mcp-test', version: '1.0.0' });
  await client.connect(transport);
  await client.listTools(); // the SDK keeps each outputSchema and checks every structuredContent with it
  return { client, transport };
}

async function call(client, name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.isError, false, `${name}: ${JSON.stringify(result.content)}`);
  assert.ok(result.structuredContent, `${name} has structuredContent`);
  assert.equal(result.structuredContent.schema, 1);
  assert.ok(result.content[0].text.length > 0, `${name} says something`);
  assert.deepEqual(JSON.parse(result.content[1].text), result.structuredContent);
  return result.structuredContent;
}

// Calls wait until the run is no longer preparing or running; returns every answer.
async function wait_until_ended(client, run, timeout_s) {
  const answers = [];
  for (let i = 0; i < 200; i += 1) {
    const waited = await call(client, 'wait', { run, timeout_s });
    answers.push(waited);
    if (waited.state !== 'preparing' && waited.state !== 'running') {
      return answers;
    }
  }
  throw new Error(`run ${run} did not end after 200 calls of wait`);
}

async function wait_until_running(client, run) {
  for (let i = 0; i < 200; i += 1) {
    const waited = await call(client, 'wait', { run, timeout_s: 0.1 });
    if (waited.state === 'running' && waited.progress.phase === 'measuring') {
      return waited;
    }
    assert.ok(['preparing', 'running'].includes(waited.state), JSON.stringify(waited));
  }
  throw new Error(`run ${run} did not start measuring`);
}

// Sends raw lines to a fresh `ej mcp` and returns every line of its stdout once stdin is closed.
function raw_session(cwd, lines, args = ['mcp']) {
  return new Promise((resolve, reject) => {
    const server = spawn(ej, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    server.stdout.on('data', (chunk) => { out += chunk; });
    server.stderr.on('data', () => {});
    server.on('error', reject);
    server.on('close', (code) => resolve({ code, lines: out.split('\n').filter((line) => line !== '') }));
    server.stdin.end(lines.map((line) => `${line}\n`).join(''));
  });
}

const repo = make_repository('main');

await step('initialize negotiates the SDK\'s protocol revision and names the server', async () => {
  const { client } = await connect(repo);
  assert.equal(client.getServerVersion().name, 'ej');
  assert.match(client.getServerVersion().version, /^ej /);
  assert.ok(client.getServerCapabilities().tools);
  assert.ok(client.getServerCapabilities().resources);
  assert.match(client.getInstructions(), /wait/);
  const { lines } = await raw_session(repo, [JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'r', version: '0' } } })]);
  assert.equal(JSON.parse(lines[0]).result.protocolVersion, LATEST_PROTOCOL_VERSION);
  await client.close();
});

await step('a client of an older revision gets it, without outputSchema; an unknown one gets the newest', async () => {
  const init = (id, version) => JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize',
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'r', version: '0' } } });
  const old = await raw_session(repo, [init(1, '2024-11-05'), '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
    '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"log"}}']);
  assert.equal(JSON.parse(old.lines[0]).result.protocolVersion, '2024-11-05');
  const tools = JSON.parse(old.lines[1]).result.tools;
  assert.equal(tools.length, EXPECTED_TOOLS.length);
  assert.ok(tools.every((tool) => tool.inputSchema && tool.outputSchema === undefined));
  const log = JSON.parse(old.lines[2]).result;
  assert.equal(log.structuredContent, undefined);
  assert.ok(Array.isArray(JSON.parse(log.content[1].text).attempts), 'the object is in the text');
  const unknown = await raw_session(repo, [init(1, '1999-01-01')]);
  assert.equal(JSON.parse(unknown.lines[0]).result.protocolVersion, '2025-11-25');
});

await step('ej mcp -C DIR serves the repository of DIR, wherever the client starts it', async () => {
  const { lines } = await raw_session(os.tmpdir(), ['{"jsonrpc":"2.0","id":1,"method":"tools/call",' +
    '"params":{"name":"bench_list"}}'], ['mcp', '-C', repo]);
  const result = JSON.parse(lines[0]).result;
  assert.equal(result.isError, false, JSON.stringify(result));
  assert.deepEqual(result.structuredContent.benchmarks.map((b) => b.name).sort(), ['gated', 'noisy', 'paced']);
  const outside = await raw_session(os.tmpdir(), ['{"jsonrpc":"2.0","id":1,"method":"tools/call",' +
    '"params":{"name":"log"}}']);
  assert.equal(JSON.parse(outside.lines[0]).result.isError, true, 'outside a repository: said, not served');
});

const { client } = await connect(repo);
let attempt;
let measured;

await step('tools/list has every tool, each with an inputSchema and an outputSchema of an object', async () => {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name).sort(), [...EXPECTED_TOOLS].sort());
  for (const tool of tools) {
    assert.equal(tool.inputSchema.type, 'object', tool.name);
    assert.equal(tool.outputSchema.type, 'object', tool.name);
    assert.ok(tool.description.length > 20, tool.name);
  }
  // A verdict's next steps are part of the schema, so the SDK checks every verdict carries them.
  const judge = tools.find((tool) => tool.name === 'judge');
  assert.ok(judge.outputSchema.properties.verdict.required.includes('next'));
  assert.deepEqual(judge.outputSchema.properties.verdict.properties.next.items.properties.kind.enum,
    ['none', 'measure_more', 'measure_against', 'calibrate', 'pin_baseline', 'choose_headline', 'fix_figures',
      'add_check']);
  // So does every comparison of compare, sequential or interleaved, with whether its figures can be
  // believed and how it was measured, as a verdict's.
  const compare = tools.find((tool) => tool.name === 'compare');
  for (const field of ['next', 'validity', 'invalid_reason', 'flags', 'design']) {
    if (field !== 'design') {
      assert.ok(judge.outputSchema.properties.verdict.required.includes(field), field);
    }
    assert.ok(compare.outputSchema.anyOf.every((design) => design.required.includes(field)), field);
  }
});

await step('try, status and note change the journal and answer with the attempt', async () => {
  const tried = await call(client, 'try', { title: 'unrolled loop', hypothesis: 'fewer branches', tags: ['mcp'] });
  attempt = tried.number;
  assert.equal(tried.name, `#${attempt}`);
  assert.equal(tried.plan, 'p');
  assert.equal(tried.status, 'proposed');
  const status = await call(client, 'status', { id: attempt, status: 'running' });
  assert.equal(status.previous_status, 'proposed');
  assert.equal(status.status, 'running');
  const noted = await call(client, 'note', { id: `#${attempt}`, text: 'measured through MCP' });
  assert.deepEqual(noted.notes.map((note) => note.text), ['measured through MCP']);
  assert.equal(JSON.parse(sh(repo, ej, ['show', String(attempt), '--json'])).notes[0].text, 'measured through MCP');
});

await step('a long run goes through run and repeated wait: progress while it goes, the verdict once ended',
  async () => {
    const started = await call(client, 'run', { bench: 'paced' });
    assert.match(started.name, /^@[0-9a-z]+$/);
    assert.equal(started.state, 'started');
    const answers = await wait_until_ended(client, started.name, 0.4);
    assert.ok(answers.length > 1, 'waited more than once');
    const running = answers.filter((answer) => answer.state === 'running' && answer.progress.phase === 'measuring');
    assert.ok(running.length > 0, JSON.stringify(answers));
    assert.equal(running.at(-1).progress.repeats_planned, 6);
    const last = answers.at(-1);
    assert.equal(last.state, 'finished');
    assert.match(last.summary, /paced finished: 6 repeat\(s\)/);
    assert.equal(last.progress, null);
  });

await step('run with an attempt, then judge and compare it against the plan\'s baseline', async () => {
  const started = await call(client, 'run', { bench: 'noisy', attempt });
  const ended = (await wait_until_ended(client, started.name, 5)).at(-1);
  assert.equal(ended.state, 'finished');
  measured = ended.number;
  assert.ok(ended.verdict, 'judged against the baseline');
  const judged = await call(client, 'judge', { id: attempt });
  assert.equal(judged.attempt, attempt);
  assert.ok(['adopted', 'rejected', 'inconclusive'].includes(judged.proposed_status), judged.proposed_status);
  assert.equal(judged.applied, false);
  // What to do next, as actions: nothing once decisive, else a command to run.
  for (const verdict of [ended.verdict, judged.verdict]) {
    assert.ok(Array.isArray(verdict.next) && verdict.next.length > 0, JSON.stringify(verdict.next));
    const first = verdict.next[0];
    assert.equal(first.command === null, first.kind === 'none', JSON.stringify(first));
    if (first.kind !== 'none') {
      assert.match(first.command, /^ej /);
    }
  }
  const compared = await call(client, 'compare', { reference: 'r1', candidate: `r${measured}` });
  assert.equal(compared.bench, 'noisy');
  assert.equal(compared.series[0].metric, 't');
  const alone = await call(client, 'compare', { reference: attempt });
  assert.equal(alone.reference, 'run #1');
  // The attempt against the baseline of its time is judged as its verdict is.
  for (const c of [compared, alone]) {
    assert.equal(c.validity, 'valid');
    assert.equal(c.invalid_reason, null);
    assert.equal(c.design.kind, 'sequential');
    assert.ok(Array.isArray(c.next) && c.next.length > 0, JSON.stringify(c.next));
  }
  assert.equal(alone.next[0].kind, judged.verdict.next[0].kind);
});

await step('the reading tools answer with what the --json outputs print', async () => {
  const log = await call(client, 'log', {});
  assert.deepEqual(log.attempts, JSON.parse(sh(repo, ej, ['log', '-n', '50', '--json'])));
  const found = await call(client, 'search', { text: 'unrolled' });
  assert.deepEqual(found.attempts.map((a) => a.number), [attempt]);
  const shown = await call(client, 'show', { id: String(attempt) });
  assert.equal(shown.title, 'unrolled loop');
  assert.deepEqual(shown.runs, [measured]);
  const run = await call(client, 'show', { id: 'r1', output: true });
  assert.equal(run.number, 1);
  assert.ok(Array.isArray(run.series));
  const why = await call(client, 'why', { query: 'mcp' });
  assert.equal(why.attempts[0].number, attempt);
  const runs = await call(client, 'runs', { bench: 'noisy' });
  assert.deepEqual(runs.runs.map((r) => r.number), [measured, 1]);
  const benches = await call(client, 'bench_list');
  assert.deepEqual(benches.benchmarks.map((b) => b.name).sort(), ['gated', 'noisy', 'paced']);
  const bench = await call(client, 'bench_show', { name: 'noisy' });
  assert.equal(bench.revisions.length, 1);
  const rendered = await call(client, 'plan_render', {});
  assert.equal(rendered.written, true);
  assert.ok(fs.readFileSync(path.join(repo, rendered.doc), 'utf8').includes('MCP plan'));
  const checked = await call(client, 'plan_render', { check: true });
  assert.equal(checked.up_to_date, true);
  assert.equal(checked.written, false);
});

await step('an interleaved session\'s verdict says what to do next, in compare and in its run', async () => {
  // The work tree's code, one commit on, measured against the baseline's in one session.
  fs.writeFileSync(path.join(repo, 'notes.txt'), 'a change\n');
  sh(repo, 'git', ['add', 'notes.txt']);
  sh(repo, 'git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '-m', 'a change']);
  sh(repo, ej, ['run', 'noisy', '--against', 'baseline', '--repeat', '6', '--quiet']);
  const newest = JSON.parse(sh(repo, ej, ['runs', '--bench', 'noisy', '--json']))[0].number;
  const run = await call(client, 'show', { id: `r${newest}` });
  assert.ok(run.comparison, JSON.stringify(run));
  assert.equal(run.comparison.design, 'interleaved');
  const compared = await call(client, 'compare', { reference: `r${run.comparison.reference}`,
    candidate: `r${run.comparison.candidate}` });
  assert.equal(compared.design, 'interleaved');
  assert.ok(Array.isArray(compared.next) && compared.next.length > 0, JSON.stringify(compared));
  assert.deepEqual(compared.next, run.comparison.next);
  assert.equal(compared.validity, 'valid');
  assert.equal(compared.invalid_reason, null);
  assert.deepEqual(compared.flags, []);
  const first = compared.next[0];
  assert.equal(first.command === null, first.kind === 'none', JSON.stringify(first));
  if (first.kind === 'measure_more') {
    assert.match(first.command, /^ej run noisy --against baseline --(repeat|until-decisive)/);
  }
});

await step('run with against starts the interleaved session detached; wait follows it, show has the verdict',
  async () => {
    // The work tree is a commit on from the baseline (the step before): both measured in one session.
    const started = await call(client, 'run', { bench: 'noisy', against: 'baseline', repeat: 4, block: 1,
      seed: '42' });
    assert.match(started.name, /^@[0-9a-z]+$/);
    assert.equal(started.state, 'started');
    const ended = (await wait_until_ended(client, started.name, 5)).at(-1);
    assert.equal(ended.state, 'finished', JSON.stringify(ended));
    const run = await call(client, 'show', { id: `r${ended.number}` });
    assert.equal(run.comparison.design, 'interleaved');
    assert.equal(run.comparison.candidate, ended.number);
    assert.equal(run.comparison.seed, '42'); // a string: JSON numbers keep 53 bits
    const reference = await call(client, 'show', { id: `r${run.comparison.reference}` });
    assert.equal(reference.status, 'finished');
    assert.equal(reference.repeats.filter((r) => !r.warmup).length, 4);
    assert.ok(Array.isArray(run.comparison.next) && run.comparison.next.length > 0);
    // The options of the session reach ej run, which says what goes with what.
    const alone = await client.callTool({ name: 'run', arguments: { bench: 'noisy', until_decisive: true } });
    assert.equal(alone.isError, true);
    assert.match(alone.content[0].text, /go with --against REF/);
    const decisive = await call(client, 'run', { bench: 'noisy', against: 'baseline', until_decisive: true,
      max_rounds: 3, budget: '5m' });
    const done = (await wait_until_ended(client, decisive.name, 5)).at(-1);
    assert.ok(['finished', 'ended'].includes(done.state), JSON.stringify(done));
    const sequential = await call(client, 'show', { id: `r${done.number}` });
    assert.equal(sequential.comparison.max_rounds, 3);
  });

await step('calibrate starts ej calibrate detached; wait follows it, bench_show then has the calibration',
  async () => {
    assert.equal((await call(client, 'bench_show', { name: 'noisy' })).calibration, null);
    const started = await call(client, 'calibrate', { bench: 'noisy', rounds: 4 });
    assert.match(started.name, /^@[0-9a-z]+$/);
    assert.equal(started.state, 'started');
    const ended = (await wait_until_ended(client, started.name, 5)).at(-1);
    assert.equal(ended.state, 'finished', JSON.stringify(ended));
    const run = await call(client, 'show', { id: `r${ended.number}` });
    assert.equal(run.label, 'calibration');
    const bench = await call(client, 'bench_show', { name: 'noisy' });
    assert.ok(bench.calibration, JSON.stringify(bench));
    assert.equal(bench.calibration.rounds, 4);
    const unknown = await client.callTool({ name: 'calibrate', arguments: { bench: 'nope' } });
    assert.equal(unknown.isError, true);
    assert.match(unknown.content[0].text, /nope/);
  });

await step('resources: every plan document and run, listed and read', async () => {
  const { resources } = await client.listResources();
  const uris = resources.map((resource) => resource.uri);
  assert.ok(uris.includes('ej://plan/p'), uris.join(' '));
  assert.ok(uris.includes('ej://run/1'), uris.join(' '));
  const plan = await client.readResource({ uri: 'ej://plan/p' });
  assert.equal(plan.contents[0].mimeType, 'text/markdown');
  assert.ok(plan.contents[0].text.includes('MCP plan'));
  const run = await client.readResource({ uri: 'ej://run/1' });
  assert.equal(JSON.parse(run.contents[0].text).number, 1);
  const { resourceTemplates } = await client.listResourceTemplates();
  assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate).sort(), ['ej://plan/{slug}', 'ej://run/{number}']);
  await assert.rejects(client.readResource({ uri: 'ej://run/999' }), (error) => error.code === -32002);
});

await step('cancel stops a run that goes on: recorded interrupted, the repeats measured kept', async () => {
  const started = await call(client, 'run', { bench: 'gated', env: ['GATE=never'] });
  await wait_until_running(client, started.name);
  const cancelled = await call(client, 'cancel', { run: started.name });
  assert.equal(cancelled.state, 'ended');
  assert.equal(cancelled.run.status, 'interrupted');
  assert.match(cancelled.run.reason, /cancelled with 'ej cancel'/);
});

await step('cancel of an interleaved session\'s run stops the session: both runs recorded interrupted', async () => {
  const started = await call(client, 'run', { bench: 'gated', against: 'HEAD~1', env: ['GATE=never'] });
  // Running, whichever side the first round drew: the reference's repeat may be the one that waits.
  for (let i = 0; i < 200 && (await call(client, 'wait', { run: started.name, timeout_s: 0.1 })).state !== 'running';
    i += 1) {
    // preparing: its ej reads and restores the code states
  }
  const cancelled = await call(client, 'cancel', { run: started.name });
  assert.equal(cancelled.state, 'ended', JSON.stringify(cancelled));
  assert.equal(cancelled.run.status, 'interrupted');
  const runs = await call(client, 'runs', { bench: 'gated', limit: 2 });
  const reference = runs.runs.find((run) => run.label === `interleaved with run #${cancelled.run.number}`);
  assert.ok(reference, JSON.stringify(runs.runs.map((run) => [run.number, run.label])));
  assert.equal(reference.status, 'interrupted');
});

await step('a tool failure is a result with isError and ej\'s message; an unknown tool a JSON-RPC error', async () => {
  const missing = await client.callTool({ name: 'show', arguments: { id: 999 } });
  assert.equal(missing.isError, true);
  assert.match(missing.content[0].text, /there is no attempt #999/);
  const wrong = await client.callTool({ name: 'log', arguments: { limit: 'many' } });
  assert.equal(wrong.isError, true);
  assert.match(wrong.content[0].text, /limit/);
  const unknown_argument = await client.callTool({ name: 'log', arguments: { plans: 'p' } });
  assert.equal(unknown_argument.isError, true);
  assert.match(unknown_argument.content[0].text, /did you mean 'plan'/);
  const no_reason = await client.callTool({ name: 'status', arguments: { id: attempt, status: 'rejected' } });
  assert.equal(no_reason.isError, true);
  assert.match(no_reason.content[0].text, /needs a reason/);
  await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }),
    (error) => error instanceof McpError && error.code === -32602 && /unknown tool/.test(error.message));
});

await step('malformed requests get JSON-RPC errors, and stdout holds nothing but protocol messages', async () => {
  const { code, lines } = await raw_session(repo, [
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},' +
      '"clientInfo":{"name":"r","version":"0"}}}',
    '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    'this is not JSON',
    '{"jsonrpc":"2.0","id":3}',
    '{"jsonrpc":"2.0","id":4,"method":"no/such/method"}',
    '[{"jsonrpc":"2.0","id":5,"method":"ping"}]',
    '{"jsonrpc":"1.0","id":6,"method":"ping"}',
    '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"try","arguments":{"title":"raw"}}}',
    '{"jsonrpc":"2.0","id":8,"method":"ping"}',
  ]);
  assert.equal(code, 0);
  const messages = lines.map((line) => JSON.parse(line));
  assert.ok(messages.every((m) => m.jsonrpc === '2.0'), lines.join('\n'));
  assert.deepEqual(messages.map((m) => m.id), [1, null, 3, 4, null, 6, 7, 8]);
  assert.equal(messages[1].error.code, -32700);
  assert.equal(messages[2].error.code, -32600);
  assert.equal(messages[3].error.code, -32601);
  assert.equal(messages[4].error.code, -32600);
  assert.equal(messages[5].error.code, -32600);
  assert.equal(messages[6].result.isError, false);
  assert.deepEqual(messages[7].result, {});
});

await client.close();

await step('a call on a damaged journal is a tool error saying so, and the server goes on', async () => {
  const damaged = make_repository('damaged');
  fs.writeFileSync(path.join(damaged, '.git', 'ej', 'journal.db'), 'this is not a journal\n'.repeat(500));
  for (const suffix of ['-wal', '-shm']) {
    fs.rmSync(path.join(damaged, '.git', 'ej', `journal.db${suffix}`), { force: true });
  }
  const { client: broken } = await connect(damaged);
  const log = await broken.callTool({ name: 'log', arguments: {} });
  assert.equal(log.isError, true);
  assert.ok(log.content[0].text.length > 0);
  const again = await broken.callTool({ name: 'bench_list', arguments: {} });
  assert.equal(again.isError, true);
  await broken.ping();
  await broken.close();
});

await step('no call outlives EJ_MCP_MAX_S: wait returns while the run goes on, and a slow call says so', async () => {
  const { client: bounded } = await connect(repo, { EJ_MCP_MAX_S: '2' });
  const started = await call(bounded, 'run', { bench: 'gated', env: ['GATE=gate-bound'] });
  // Asked for a minute; the run goes on until the gate exists, which is made only after the answer.
  const waited = await call(bounded, 'wait', { run: started.name, timeout_s: 60 });
  assert.ok(['preparing', 'running'].includes(waited.state), waited.state);
  fs.writeFileSync(path.join(repo, 'gate-bound'), '');
  // Short waits: each call, with its own overhead under a sanitizer, stays well inside the 2 s.
  assert.equal((await wait_until_ended(bounded, started.name, 0.3)).at(-1).state, 'finished');
  await bounded.close();
  const { client: tiny } = await connect(repo, { EJ_MCP_MAX_S: '0.000001' });
  const late = await tiny.callTool({ name: 'log', arguments: {} });
  assert.equal(late.isError, true);
  assert.match(late.content[0].text, /did not finish within 1e-06 s/);
  await tiny.close();
});

await step('a client that disconnects mid-call loses nothing: the detached run goes on and is recorded whole',
  async () => {
    const { client: leaving, transport } = await connect(repo);
    const started = await call(leaving, 'run', { bench: 'gated', env: ['GATE=gate-leave'] });
    await wait_until_running(leaving, started.name);
    const pid = transport.pid;
    const pending = leaving.callTool({ name: 'wait', arguments: { run: started.name, timeout_s: 8 } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await leaving.close(); // mid-call: ends stdin, then SIGTERM, then SIGKILL
    await assert.rejects(pending);
    assert.throws(() => process.kill(pid, 0), /ESRCH/, 'the server is gone');
    fs.writeFileSync(path.join(repo, 'gate-leave'), '');
    const waited = JSON.parse(sh(repo, ej, ['wait', started.name, '--timeout', '60', '--json']))[0];
    assert.equal(waited.state, 'finished');
    assert.match(waited.summary, /gated finished: 3 repeat\(s\)/);
    const run = JSON.parse(sh(repo, ej, ['show', 'run', String(waited.number), '--json']));
    assert.equal(run.repeats.filter((r) => !r.warmup).length, 3);
  });

cancel_runs_left();
if (failures === 0) {
  for (const dir of keep) {
    fs.rmSync(dir, { recursive: true, force: true });
  }
} else {
  console.log(`kept: ${keep.join(' ')}`);
}
console.log(failures === 0 ? 'all steps passed' : `${failures} step(s) failed`);
process.exit(failures === 0 ? 0 : 1);
