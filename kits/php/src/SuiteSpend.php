<?php

declare(strict_types=1);

namespace SmsEmulator\PhpUnit;

/**
 * What the run's SmsWorld tests spent, kept while a suite budget is in force (SuiteCostBudget puts it in force; with
 * none, no test asks for its spend), and the failure when the run spent more: the tests that spent most, each with its
 * costliest message.
 *
 * @phpstan-import-type Spend from Answers
 */
final class SuiteSpend
{
    /** How many of the costliest tests the failure names. */
    private const NAMED = 5;

    private static ?int $budget = null;

    /** @var array<string, Spend> each test's spend, by its id, in the order the tests ended */
    private static array $spent = [];

    public static function enforce(int $credits): void
    {
        self::$budget = $credits;
    }

    /** Keeps what a test's world spent, when a suite budget is in force (SmsWorld calls it before it closes the world). */
    public static function record(string $test, World $world): void
    {
        if (self::$budget !== null) {
            self::$spent[$test] = $world->spend();
        }
    }

    /** The failure to report when the run spent more than its budget; null when it did not, or none is in force. */
    public static function overBudget(): ?string
    {
        $credits = array_sum(array_column(self::$spent, 'credits'));
        if (self::$budget === null || $credits <= self::$budget) {
            return null;
        }
        $ranked = self::$spent;
        uasort($ranked, static fn (array $a, array $b) => $b['credits'] <=> $a['credits']);
        $lines = '';
        foreach (array_slice($ranked, 0, self::NAMED, true) as $test => $spend) {
            $costliest = isset($spend['top'][0]) ? "; its costliest: {$spend['top'][0]['line']}" : '';
            $lines .= "\n  - $test: " . Plural::count($spend['credits'], 'credit') . $costliest;
        }
        return Settings::ERROR_PREFIX . 'the suite spent ' . Plural::count($credits, 'credit') . ', over its budget of '
            . Plural::count(self::$budget, 'credit') . ". Top spenders:$lines";
    }
}
