<?php

declare(strict_types=1);

use PHPUnit\Framework\TestCase;
use SmsEmulator\PhpUnit\Emulator;
use SmsEmulator\PhpUnit\Schedule;
use SmsEmulator\PhpUnit\Signing;
use SmsEmulator\PhpUnit\TestVectors;

/**
 * The shared test vectors (TestVectors: the package's copy, else the checkout's test-vectors/): the PHP signer, schedule
 * writer and payload reader agree with the emulator, and every segment case reaches the emulator's `cost` unchanged.
 */
final class VectorsTest extends TestCase
{
    private static function cases(string $file): array
    {
        $vectors = TestVectors::read($file);
        self::assertNotEmpty($vectors['cases']);
        return $vectors['cases'];
    }

    public function testSigningBuildsTheCanonicalStringAndSignatureOfEveryCase(): void
    {
        foreach (self::cases('signing.json') as $case) {
            self::assertSame($case['canonical'], Signing::canonicalString($case['fields']), $case['name']);
            self::assertSame($case['signature'], Signing::sign($case['fields'], $case['secret']), $case['name']);
        }
    }

    public function testScheduleTextIsWrittenAsTheApiTakesItRoundingUp(): void
    {
        foreach (self::cases('schedule.json') as $case) {
            self::assertSame($case['schedule'], Schedule::format(new DateTimeImmutable($case['instant']), $case['offset']), $case['name']);
        }
    }

    public function testAScheduleAnsweredWithSecondsComparesWithTheKitsOwnText(): void
    {
        self::assertSame('2026-11-22T09:30+02:00', Schedule::format('2026-11-22T09:30:00+02:00'));
        self::assertSame(Schedule::format('2026-11-22T09:30:00+02:00'), Schedule::format(new DateTimeImmutable('2026-11-22T07:30:00Z')));
    }

    public function testEveryWebhookPayloadReadsWithItsKindsFields(): void
    {
        foreach (self::cases('webhooks.json') as $case) {
            $payload = $case['payload'];
            self::assertIsString($payload['id'], $case['name']);
            self::assertContains($payload['type'], ['sms', 'sms-reply'], $case['name']);
            self::assertArrayHasKey('status', $payload, $case['name']);
        }
    }

    public function testEverySegmentCaseCostsWhatTheVectorsSayWhenAskedThroughTheKit(): void
    {
        // The kit counts nothing itself: a text mangled on its way (a surrogate pair, NFD, CRLF, an escape) miscounts here.
        $control = Emulator::shared()->control;
        foreach (self::cases('segments.json') as $case) {
            $cost = $control->cost(['text' => $case['text']]);
            $trigger = $cost['triggers'][0]['char'] ?? null;
            self::assertSame(
                [$case['encoding'], $case['units'], $case['segments'], $case['ucs2Trigger']],
                [$cost['encoding'], $cost['units'], $cost['segments'], $trigger],
                $case['name'],
            );
        }
    }
}
