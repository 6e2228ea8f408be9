// Renders bench results as bench/RESULTS.md: targets with measured value, baseline, ratio and verdict, then the details.
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { kitSection } from './kitSection.js';

export function machine(pinned, serverCpu) {
  return {
    cores: availableParallelism(),
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    pinning: pinned
      ? `server side on CPU ${serverCpu}, load generator on CPU 0 (taskset)`
      : 'none (fewer than 2 CPUs or no taskset): both share the CPUs',
    loadAverage: loadavg()[0].toFixed(2),
    date: new Date().toISOString(),
  };
}

const fixed = (value, digits = 0) =>
  value === undefined || Number.isNaN(value)
    ? 'n/a'
    : value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const micros = (value) => `${fixed(value)} µs`;
const ms = (value) => `${fixed(value, value < 10 ? 2 : 0)} ms`;
const bytes = (value) => `${fixed(value)} B`;
const verdict = (ok) => (ok ? 'yes' : '**no**');

const perSecond = (unit) => (value) => `${fixed(value)} ${unit}`;

/** A target row: figure, measured, baseline (same run), ratio, target, met. */
function row(figure, format, value, baselineLabel, baseline, target, met, ratioValue = value / baseline) {
  return [
    figure,
    format(value),
    `${baselineLabel} ${format(baseline)}`,
    baseline ? `${fixed(ratioValue, 2)}×` : 'n/a',
    target,
    met,
  ];
}

function memoryRows(count, run) {
  return [
    row(
      `Heap per stored message at ${count}`,
      bytes,
      run.stored.heap,
      'plain object',
      run.baseline.heap,
      '≤ 1 KB',
      run.stored.heap <= 1024,
    ),
    row(
      `RSS per stored message at ${count}`,
      bytes,
      run.stored.rss,
      'plain object',
      run.baseline.rss,
      '≤ 1.5 KB',
      run.stored.rss <= 1536,
    ),
  ];
}

/**
 * This build against the last release, measured in the same rounds: each one's throughput as a ratio to bare node:http
 * (the median of its rounds), and this build's ratio over the release's.
 */
function releaseRows(r) {
  const { bare, release, emulator } = r.load;
  if (release === undefined)
    return [[`Against the last release`, 'n/a', r.release?.skipped ?? 'not measured', 'n/a', '(context)', undefined]];
  const times = (value) => `${fixed(value, 2)}× of bare node:http`;
  return ['balance', 'send'].map((name) =>
    row(
      `${name === 'balance' ? 'GET balance' : 'Signed POST send'} throughput against the last release (${r.release.commit}), same rounds`,
      times,
      emulator[name].rpsRatio,
      `${r.release.commit}`,
      release[name].rpsRatio,
      '≥ 1.00×',
      emulator[name].rpsRatio >= release[name].rpsRatio && bare[name].rps > 0,
    ),
  );
}

function targetRows(r) {
  const { bare, hono, emulator } = r.load;
  const s = r.scale;
  const latency = s.lists.latencies;
  const worstV1 = Math.max(
    ...Object.entries(latency).flatMap(([name, { p99 }]) =>
      name === 'balance' || name.startsWith('control') ? [] : [p99],
    ),
  );
  const worstControl = Math.max(latency.control.p99, latency.controlPage2.p99);
  const n = r.sizes.messages.toLocaleString('en');
  const reqs = perSecond('req/s');
  return [
    ...['balance', 'send'].flatMap((name) => {
      const [figure, floor] = name === 'balance' ? ['GET balance', 0.85] : ['Signed POST send', 0.65];
      const [mine, theirs] = [emulator[name], bare[name]];
      return [
        row(
          `${figure} throughput`,
          reqs,
          mine.rps,
          'bare node:http',
          theirs.rps,
          `≥ ${floor}×`,
          mine.rpsRatio >= floor,
          mine.rpsRatio,
        ),
        ...(name === 'balance'
          ? [
              row(
                'GET balance p99',
                ms,
                mine.p99,
                'bare node:http',
                theirs.p99,
                '≤ 1.5×',
                mine.p99Ratio <= 1.5,
                mine.p99Ratio,
              ),
            ]
          : []),
        row(
          `${figure} server CPU per request`,
          micros,
          mine.cpuUs,
          'bare node:http',
          theirs.cpuUs,
          '(context)',
          undefined,
          theirs.cpuUs / mine.cpuUs,
        ),
      ];
    }),
    ...releaseRows(r),
    row(
      'Cold start (spawn → first 200)',
      ms,
      r.coldStart.emulator,
      'bare node:http',
      r.coldStart.bare,
      '≤ 1.5×',
      r.coldStart.emulator <= 1.5 * r.coldStart.bare,
    ),
    row(
      `7-day jump over ${n} messages (defaults, no webhook URL)`,
      ms,
      s.jumpMs,
      'notifyOn: []',
      r.quietJump.jumpMs,
      '≤ 1 s',
      s.jumpMs <= 1000,
    ),
    ...(r.releaseJump === undefined
      ? []
      : [
          row(
            `7-day jump over ${n} messages against the last release (${r.release.commit}), same run`,
            ms,
            s.jumpMs,
            r.release.commit,
            r.releaseJump.jumpMs,
            '(context)',
            undefined,
          ),
        ]),
    row(
      `Webhooks/s to a keep-alive receiver (${r.webhooks.webhooks.toLocaleString('en')} posted)`,
      perSecond('/s'),
      r.webhooks.rate,
      'bare keep-alive agent',
      r.webhooks.bareRate,
      '≥ 5,000 /s',
      r.webhooks.rate >= 5000,
    ),
    ...memoryRows(n, s),
    ...memoryRows(r.sizes.million.toLocaleString('en'), r.million),
    row(
      `\`/v1\` list p99, worst filter or search over ${n}`,
      ms,
      worstV1,
      'balance read',
      latency.balance.p99,
      '≤ 10 ms',
      worstV1 <= 10,
    ),
    row(
      `\`GET /_emulator/messages\` p99 over ${n}`,
      ms,
      worstControl,
      'balance read',
      latency.balance.p99,
      '≤ 10 ms (paginated)',
      worstControl <= 10,
    ),
    [
      'Longest event-loop block during list reads',
      ms(s.lists.maxBlockMs),
      '1 ms resolution',
      'n/a',
      '≤ 20 ms',
      s.lists.maxBlockMs <= 20,
    ],
    row(`\`reset\` with ${n} messages`, ms, s.resetMs, 'empty emulator', s.emptyResetMs, '≤ 50 ms', s.resetMs <= 50),
    [
      '(context) bare hono app, GET balance / POST send',
      `${fixed(hono.balance.rps)} / ${fixed(hono.send.rps)} req/s`,
      'bare node:http',
      `${fixed(hono.balance.rpsRatio, 2)}× / ${fixed(hono.send.rpsRatio, 2)}×`,
      '',
      undefined,
    ],
  ];
}

export function renderResults(r) {
  const lines = [];
  const table = (header, rows) => {
    lines.push(`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`);
    for (const row of rows) lines.push(`| ${row.join(' | ')} |`);
    lines.push('');
  };
  const mc = r.machine;
  lines.push(
    '# Benchmark results',
    '',
    `Written by \`npm run bench\` (size: ${r.size}) on ${mc.date}. Every ratio compares two figures measured in this same run.`,
    '',
    `Machine: ${mc.cores} cores (${mc.cpu}), ${mc.memoryGiB} GiB, Node ${mc.node}, ${mc.platform}; pinning: ${mc.pinning}; load average at start ${mc.loadAverage}.`,
    '',
    '## Targets',
    '',
  );
  table(
    ['figure', 'measured', 'baseline (same run)', 'ratio', 'target', 'met'],
    targetRows(r).map((row) => [...row.slice(0, 5), row[5] === undefined ? '' : verdict(row[5])]),
  );
  lines.push(
    '## HTTP load',
    '',
    `autocannon, ${r.connections} connections, ${r.sizes.rounds} interleaved round(s) of ${r.sizes.seconds} s per server and route after a ${r.sizes.warmup} s warm-up. Figures are medians of the rounds; ratios are the median of each round's ratio to bare node:http (measured seconds apart, so drift on a shared machine hits both). The CPU column is the server process's CPU time per answered request (throughput ratio = the inverse when the server is the bottleneck; the "CPU per request" rows state it as bare ÷ emulator). RSS is read after the last round.`,
    '',
  );
  table(
    ['server', 'GET balance req/s', 'p99', 'CPU/req', 'signed POST send req/s', 'p99', 'CPU/req', 'RSS after the load'],
    Object.values(r.load).map((server) => [
      server.label,
      `${fixed(server.balance.rps)} (${fixed(server.balance.rpsRatio, 2)}×)`,
      ms(server.balance.p99),
      micros(server.balance.cpuUs),
      `${fixed(server.send.rps)} (${fixed(server.send.rpsRatio, 2)}×)`,
      ms(server.send.p99),
      micros(server.send.cpuUs),
      `${fixed((server.rss ?? NaN) / 2 ** 20)} MB`,
    ]),
  );
  lines.push(
    `The emulator stored ${fixed(r.load.emulator.sent)} messages during the measured send rounds${r.load.release ? ` (the last release ${fixed(r.load.release.sent)})` : ''}.${r.load.release ? ` The last release (${r.release.commit}) is built from git into a temporary folder by bench/release.js and started with the same arguments; the order of the servers turns round every other round.` : ''}`,
    '',
  );
  lines.push(
    '## Scale',
    '',
    `A child process (\`--expose-gc\`) runs the emulator on a manual clock with default settings and sends it distinct signed single-recipient messages through \`emulator.fetch\` (the API without sockets; the HTTP rate is in the load section). The jump advances 7 days (and again while tasks are queued: one move fires at most a million).`,
    '',
  );
  const s = r.scale;
  table(
    ['figure', `${r.sizes.messages.toLocaleString('en')} messages`, `${r.sizes.million.toLocaleString('en')} messages`],
    [
      [
        'in-process sends',
        `${fixed(r.sizes.messages / (s.fillMs / 1000))} /s`,
        `${fixed(r.sizes.million / (r.million.fillMs / 1000))} /s`,
      ],
      [
        'heap / RSS per message before the jump (lifecycle pending)',
        `${bytes(s.pending.heap)} / ${bytes(s.pending.rss)}`,
        `${bytes(r.million.pending.heap)} / ${bytes(r.million.pending.rss)}`,
      ],
      ['7-day jump', ms(s.jumpMs), ms(r.million.jumpMs)],
      [
        'heap / RSS per message after the jump (stored, final)',
        `${bytes(s.stored.heap)} / ${bytes(s.stored.rss)}`,
        `${bytes(r.million.stored.heap)} / ${bytes(r.million.stored.rss)}`,
      ],
      [
        'baseline: plain objects in a Map, in a fresh process, heap / RSS',
        `${bytes(s.baseline.heap)} / ${bytes(s.baseline.rss)}`,
        `${bytes(r.million.baseline.heap)} / ${bytes(r.million.baseline.rss)}`,
      ],
    ],
  );
  lines.push(
    `List reads over ${r.sizes.messages.toLocaleString('en')} messages, in process, one after another (up to ${r.sizes.listRepeats} each):`,
    '',
  );
  table(
    ['query', 'p50', 'p99', 'runs'],
    Object.entries(s.lists.latencies).map(([name, latency]) => [
      name,
      ms(latency.p50),
      ms(latency.p99),
      String(latency.runs),
    ]),
  );
  lines.push(
    `Webhooks: ${r.webhooks.webhooks.toLocaleString('en')} events from ${r.sizes.webhookMessages.toLocaleString('en')} messages in ${fixed(r.webhooks.seconds, 2)} s (7-day jump until every try ended).`,
    '',
    fixtureSection(r),
    ...(r.kits === undefined ? [] : [kitSection(r)]),
    ...(r.parity ? [paritySection(r)] : []),
    '## Reproduce',
    '',
    '```sh',
    'npm ci',
    'npm run bench                      # full size, several minutes; writes bench/RESULTS.md',
    'BENCH_SIZE=tiny npm run bench      # seconds: the same steps at a small size (what CI runs)',
    'BENCH_ONLY=fixture npm run bench   # about a minute: the vitest fixture section alone, rewritten in place',
    'npm run kits && BENCH_ONLY=fixture,kits npm run bench   # the language kits beside the fixture, rewritten in place',
    'BENCH_ONLY=parity npm run bench    # under a minute: the parity section alone (recording overhead, a 10,000-event diff)',
    '```',
    '',
    'The figures move with the machine and whatever else runs on it; the ratios are what carries over.',
    '',
  );
  return lines.join('\n');
}

/** Where the fixture section starts in RESULTS.md; it runs to the next `## ` heading. */
const fixtureHeading = '## Vitest fixture';

/**
 * The vitest fixture's per-test cost beside msw's, with its own "Written by" line: `BENCH_ONLY=fixture` rewrites this
 * section alone (see `withFixtureSection`), so its figures need not come from the run that wrote the rest.
 */
export function fixtureSection(r) {
  const f = r.fixture;
  const { embedded, process: remote } = f;
  const msw = embedded.msw;
  const rows = [
    row(
      'Fixture test: send one message, wait for `delivered`, see its webhook (embedded)',
      ms,
      embedded.send,
      'msw test faking the send',
      msw,
      '≤ 1.5×',
      embedded.send <= 1.5 * msw,
    ),
    row(
      'The same fixture test, process mode (`smsGlobalSetup`)',
      ms,
      remote.send,
      'msw test faking the send',
      msw,
      '≤ 5×',
      remote.send <= 5 * msw,
    ),
    row(
      "A file's first fixture test (embedded): the emulator, the worker's catcher and the first request's code start",
      ms,
      f.first.embedded.send,
      "msw's first test",
      f.first.embedded.msw,
      '(context)',
      undefined,
    ),
    row(
      "A file's first fixture test, process mode: the connection and the first request's code start",
      ms,
      f.first.process.send,
      "msw's first test",
      f.first.embedded.msw,
      '(context)',
      undefined,
    ),
    row(
      'Fixture alone per test: account, clock, catcher route, clean-up (embedded)',
      ms,
      embedded.fixture,
      'empty vitest test',
      embedded.empty,
      '(context)',
      undefined,
    ),
    row(
      'Fixture alone per test, process mode',
      ms,
      remote.fixture,
      'empty vitest test',
      embedded.empty,
      '(context)',
      undefined,
    ),
  ];
  const mc = r.machine;
  return [
    fixtureHeading,
    '',
    `Written by \`npm run bench\` (fixture part, size: ${r.size}) on ${mc.date}, Node ${mc.node}, load average at start ${mc.loadAverage}. Each figure is the median duration vitest reports for one test (fixture set-up and clean-up included) over ${f.tests} tests of a kind, one file at a time, all in one vitest run of bench/fixture; the first test of each file is apart (its own rows), as it also starts what the file and its worker share.`,
    '',
    '| per test | measured | baseline (same run) | ratio | target | met |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (cells) => `| ${[...cells.slice(0, 5), cells[5] === undefined ? '' : verdict(cells[5])].join(' | ')} |`,
    ),
    '',
    "Embedded, the test's `sms.client` reaches the emulator in process and the emulator hands its webhooks to the worker's catcher in process too (`receiveWebhooksLocally`). In process mode a test costs three HTTP requests to the emulator process on its critical path (its world in one call, the send, the wait in one call; the clock's deletion runs while the next test starts), over kept-alive connections, and the two webhook posts back to the worker's catcher, each a loopback round trip between processes.",
    '',
  ].join('\n');
}

/** RESULTS.md with its fixture section replaced by the one of `r` (or added before "## Reproduce"). */
export function withFixtureSection(text, r) {
  const section = fixtureSection(r);
  const start = text.indexOf(fixtureHeading);
  if (start >= 0) {
    const next = text.indexOf('\n## ', start + fixtureHeading.length);
    return `${text.slice(0, start)}${section}\n${next < 0 ? '' : text.slice(next + 1)}`;
  }
  const reproduce = text.indexOf('## Reproduce');
  if (reproduce < 0)
    throw new Error('bench/RESULTS.md has no "## Reproduce" section to put the fixture section before');
  return `${text.slice(0, reproduce)}${section}\n${text.slice(reproduce)}`;
}

/** Where the parity section starts in RESULTS.md; it runs to the next `## ` heading. */
const parityHeading = '## Parity';

/**
 * What the recording proxy adds to a request, and how long a 10,000-event transcript takes to diff, with its own
 * "Written by" line: `BENCH_ONLY=parity` rewrites this section alone (see `withParitySection`).
 */
export function paritySection(r) {
  const { overhead, diff } = r.parity;
  const mc = r.machine;
  const added = (route) => overhead[route].recorded - overhead[route].direct;
  const rows = [
    row(
      'Balance read through `sms-emulator record`',
      ms,
      overhead.balance.recorded,
      'straight to the emulator',
      overhead.balance.direct,
      'adds ≤ 5 ms',
      added('balance') <= 5,
    ),
    row(
      'Signed send through `sms-emulator record`',
      ms,
      overhead.send.recorded,
      'straight to the emulator',
      overhead.send.direct,
      'adds ≤ 5 ms',
      added('send') <= 5,
    ),
  ];
  return [
    parityHeading,
    '',
    `Written by \`npm run bench\` (parity part, size: ${r.size}) on ${mc.date}, Node ${mc.node}, load average at start ${mc.loadAverage}. Each request figure is the median of ${overhead.requests.toLocaleString('en')} sequential requests from one client over a kept-alive connection, to an emulator in this process straight and through a recorder in this process in front of it, interleaved round by round; the recorder writes every line to its file before it answers.`,
    '',
    '| per request | measured | baseline (same run) | ratio | target | met |',
    '|---|---|---|---|---|---|',
    ...rows.map((cells) => `| ${[...cells.slice(0, 5), verdict(cells[5])].join(' | ')} |`),
    '',
    `\`parity diff\` of a transcript of ${diff.events.toLocaleString('en')} events (an emulator's own session of sends, their notifications and the receiver's answers): ${fixed(diff.ms / 1000, 2)} s to replay it into a fresh emulator and compare (target: seconds, not minutes), ${diff.errors} error and ${diff.warnings} warn findings.`,
    '',
  ].join('\n');
}

/** RESULTS.md with its parity section replaced by the one of `r` (or added before "## Reproduce"). */
export function withParitySection(text, r) {
  const section = paritySection(r);
  const start = text.indexOf(parityHeading);
  if (start >= 0) {
    const next = text.indexOf('\n## ', start + parityHeading.length);
    return `${text.slice(0, start)}${section}\n${next < 0 ? '' : text.slice(next + 1)}`;
  }
  const reproduce = text.indexOf('## Reproduce');
  if (reproduce < 0) throw new Error('bench/RESULTS.md has no "## Reproduce" section to put the parity section before');
  return `${text.slice(0, reproduce)}${section}\n${text.slice(reproduce)}`;
}
