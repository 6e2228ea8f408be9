<?php

declare(strict_types=1);

namespace SmsEmulator\PhpUnit;

use PHPUnit\Framework\Assert;

/**
 * PHPUnit assertions on what a text costs, as the emulator's `cost` answers it (the kit counts nothing itself): a
 * failure shows the emulator's breakdown, each character that forced UCS-2 with its position, code point and the GSM-7
 * text a team usually meant. `use CostAssertions;` in a TestCase (SmsWorld brings it); what a test's world spent is
 * `$this->sms->assertCostAtMost()`.
 *
 *     self::assertStaysGsm7($this->sms->sms->send('27831234567', "Your parcel's here"));
 *     self::assertFitsSegments($template, 1);
 *
 * @phpstan-import-type CostExplanation from Answers
 */
trait CostAssertions
{
    /**
     * Asserts that a text, or a message the kit answered (its `message`), stays GSM-7; answers the emulator's explanation.
     *
     * @param string|array{message: string} $subject
     * @return CostExplanation
     */
    public static function assertStaysGsm7(string|array $subject): array
    {
        $cost = self::smsCost($subject);
        if ($cost['encoding'] !== 'GSM-7') {
            Assert::fail("expected the text to stay GSM-7; it is {$cost['breakdown']}");
        }
        Assert::assertSame('GSM-7', $cost['encoding']);
        return $cost;
    }

    /**
     * Asserts that a text, or a message the kit answered (its `message`), is sent in at most `$segments` parts; answers
     * the emulator's explanation.
     *
     * @param string|array{message: string} $subject
     * @return CostExplanation
     */
    public static function assertFitsSegments(string|array $subject, int $segments): array
    {
        $cost = self::smsCost($subject);
        if ($cost['segments'] > $segments) {
            Assert::fail('expected the text to fit ' . Plural::count($segments, 'segment') . "; it is {$cost['breakdown']}");
        }
        Assert::assertLessThanOrEqual($segments, $cost['segments']);
        return $cost;
    }

    /**
     * @param string|array{message: string} $subject
     * @return CostExplanation
     */
    private static function smsCost(string|array $subject): array
    {
        $text = is_string($subject) ? $subject : ($subject['message'] ?? null);
        if (!is_string($text)) {
            throw new \InvalidArgumentException(Settings::ERROR_PREFIX . 'a cost assertion takes a text or a message (its text in `message`)');
        }
        return Emulator::shared()->control->cost(['text' => $text]);
    }
}
