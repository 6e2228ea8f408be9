// Child process (run with --expose-gc): the memory baseline, in a fresh process so nothing else's heap headroom hides
// in its figures. Fills a Map with plain objects shaped like the API's message JSON and prints heap and RSS per object.
const count = Number(process.argv[2]);

function memory() {
  globalThis.gc();
  globalThis.gc();
  const { heapUsed, rss } = process.memoryUsage();
  return { heap: heapUsed, rss };
}

const before = memory();
const map = new Map();
for (let i = 0; i < count; i++) {
  const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
  map.set(id, {
    id,
    recipient: [String(27_830_000_000 + i)],
    message: `Benchmark message ${i}`,
    status: 'delivered',
    createdAt: 1_700_000_000_000 + i,
  });
}
const after = memory();
process.stdout.write(
  JSON.stringify({ heap: (after.heap - before.heap) / count, rss: (after.rss - before.rss) / count, kept: map.size }),
);
