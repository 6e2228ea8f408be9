<?php

// What a test's world costs the PHP kit: medians in milliseconds of a world's set-up and clean-up alone, and of a world
// that sends one message, waits for `delivered` and reads its webhook. Prints one JSON line. Usage: php world.php [worlds]

declare(strict_types=1);

require __DIR__ . '/../tests/bootstrap.php';

use SmsEmulator\PhpUnit\Emulator;
use SmsEmulator\PhpUnit\World;

$worlds = (int) ($argv[1] ?? 300);
$emulator = Emulator::shared();
$median = static function (array $times): float {
    sort($times);
    return round($times[intdiv(count($times), 2)], 3);
};
$alone = [];
$withSend = [];
for ($i = 0; $i < $worlds; $i++) {
    $start = hrtime(true);
    World::create($emulator->control, name: "bench $i")->close();
    $alone[] = (hrtime(true) - $start) / 1e6;

    $start = hrtime(true);
    $world = World::create($emulator->control, name: "bench send $i");
    $sent = $world->sms->send('27831234567', 'bench');
    $world->waitFor($sent['id'], 'delivered');
    if (count($world->webhooks($sent['id'])) === 0) {
        throw new RuntimeException('the bench world logged no webhook');
    }
    $world->close();
    $withSend[] = (hrtime(true) - $start) / 1e6;
}
echo json_encode(['kit' => 'php', 'worlds' => $worlds, 'emulator' => 'carried runtime and bundle', 'worldMs' => $median($alone), 'worldWithSendMs' => $median($withSend)]), "\n";
