<?php

declare(strict_types=1);

use PHPUnit\Framework\TestCase;
use SmsEmulator\PhpUnit\Contract;
use SmsEmulator\PhpUnit\Emulator;

/** A failing test names its timeline in the output and leaves it under the run's own folder; passing ones leave none. */
final class TimelineTest extends TestCase
{
    public function testAFailingTestWritesItsTimelineAndNamesItInTheOutput(): void
    {
        $folder = sys_get_temp_dir() . '/sms-php-timelines-' . bin2hex(random_bytes(4));
        $env = ['SMS_EMULATOR_URL' => Emulator::shared()->origin, 'SMS_EMULATOR_TIMELINE_DIR' => $folder] + getenv();
        $process = proc_open(
            [PHP_BINARY, ...self::phpunit(), '-c', __DIR__ . '/../phpunit.xml', __DIR__ . '/fixtures/FailingWorldTest.php'],
            [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']],
            $pipes,
            __DIR__ . '/..',
            $env,
        );
        $output = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
        $exit = proc_close($process);
        try {
            self::assertSame(1, $exit, $output);
            $file = Contract::timelineFile('FailingWorldTest::testTheReminderIsDeliveredBeforeNine');
            $written = glob("$folder/run-*/$file") ?: [];
            self::assertCount(1, $written, $output);
            self::assertStringContainsString("sms-emulator: the timeline of FailingWorldTest::testTheReminderIsDeliveredBeforeNine: {$written[0]}", $output);
            self::assertStringContainsString('POST /v1/messages', (string) file_get_contents($written[0]));
        } finally {
            foreach (glob("$folder/run-*/*") ?: [] as $path) {
                unlink($path);
            }
            foreach (glob("$folder/run-*") ?: [] as $path) {
                rmdir($path);
            }
            @rmdir($folder);
        }
    }

    /** How this run's PHPUnit is started again: its own script (Debian's /usr/bin/phpunit, or vendor/bin/phpunit). */
    private static function phpunit(): array
    {
        return [realpath($_SERVER['argv'][0]) ?: 'phpunit'];
    }
}
