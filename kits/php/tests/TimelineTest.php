<?php

declare(strict_types=1);

use PHPUnit\Framework\TestCase;
use SmsEmulator\PhpUnit\Contract;

require_once __DIR__ . '/InnerRun.php';

/** A failing test names its timeline in the output and leaves it under the run's own folder; passing ones leave none. */
final class TimelineTest extends TestCase
{
    public function testAFailingTestWritesItsTimelineAndNamesItInTheOutput(): void
    {
        $folder = sys_get_temp_dir() . '/sms-php-timelines-' . bin2hex(random_bytes(4));
        [$exit, $output] = InnerRun::phpunit(['-c', __DIR__ . '/../phpunit.xml', __DIR__ . '/fixtures/FailingWorldTest.php'], ['SMS_EMULATOR_TIMELINE_DIR' => $folder]);
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
}
