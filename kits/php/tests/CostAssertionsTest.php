<?php

declare(strict_types=1);

use PHPUnit\Framework\AssertionFailedError;
use PHPUnit\Framework\TestCase;
use SmsEmulator\PhpUnit\SmsWorld;

/** The cost assertions fail on a UCS-2 text with the emulator's breakdown, and pass on its GSM-7 fix. */
final class CostAssertionsTest extends TestCase
{
    use SmsWorld;

    private const CURLY = 'Your parcel’s ready at the Main Street locker: collect it by Friday, code 4411.';
    private const FIXED = "Your parcel's ready at the Main Street locker: collect it by Friday, code 4411.";
    private const TRIGGER = "\n  position 12: \"’\" U+2019 RIGHT SINGLE QUOTATION MARK, use \"'\"\n  with those replaced: GSM-7, 1 segment";

    private static function failure(callable $assertion): string
    {
        try {
            $assertion();
        } catch (AssertionFailedError $failure) {
            return $failure->getMessage();
        }
        self::fail('the assertion passed');
    }

    public function testAssertStaysGsm7FailsOnACurlyApostropheNamingItsPositionCodePointAndFix(): void
    {
        self::assertSame(
            'expected the text to stay GSM-7; it is UCS-2, 79 UTF-16 units, 2 segments: "' . self::CURLY . '"' . self::TRIGGER,
            self::failure(static fn () => self::assertStaysGsm7(self::CURLY)),
        );
    }

    public function testAssertStaysGsm7PassesOnTheFixAndReadsAMessageTheKitAnswered(): void
    {
        self::assertSame('GSM-7', self::assertStaysGsm7(self::FIXED)['encoding']);
        $sent = $this->sms->sms->send('27831234567', self::FIXED);
        self::assertSame(79, self::assertStaysGsm7($sent)['units']);
        self::assertStringContainsString('U+2019', self::failure(fn () => self::assertStaysGsm7($this->sms->sms->send('27831234567', self::CURLY))));
    }

    public function testAssertFitsSegmentsFailsOnAUcs2TextPastItsSegmentsWithTheBreakdown(): void
    {
        self::assertSame(
            'expected the text to fit 1 segment; it is UCS-2, 79 UTF-16 units, 2 segments: "' . self::CURLY . '"' . self::TRIGGER,
            self::failure(static fn () => self::assertFitsSegments(self::CURLY, 1)),
        );
        self::assertSame(2, self::assertFitsSegments(self::CURLY, 2)['segments']);
    }

    public function testAssertFitsSegmentsPassesOnTheFix(): void
    {
        self::assertSame(1, self::assertFitsSegments(self::FIXED, 1)['segments']);
    }

    public function testAssertCostAtMostFailsWhenTheWorldSpentMoreNamingItsTopSpenders(): void
    {
        $this->sms->sms->send(['27831234567', '27831234568'], self::CURLY);
        $this->sms->sms->send('27831234567', 'Reminder: 09:00');
        self::assertSame(
            "expected this world to cost at most 4 credits; it spent 5 credits on 2 messages. Top spenders:\n"
            . '  - 4 credits: to 27831234567, 27831234568: "Your parcel’s ready at the Main Street locker: collect it by…" (UCS-2, 2 segments × 2 recipients; UCS-2 forced by "’" at 12)' . "\n"
            . '  - 1 credit: to 27831234567: "Reminder: 09:00" (GSM-7, 1 segment × 1 recipient)',
            self::failure(fn () => $this->sms->assertCostAtMost(4)),
        );
    }

    public function testAssertCostAtMostPassesWithinTheBudgetAndAnswersTheSpend(): void
    {
        $this->sms->sms->send(['27831234567', '27831234568'], self::FIXED);
        self::assertSame(2, $this->sms->assertCostAtMost(2)['credits']);
    }
}
