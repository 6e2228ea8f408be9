<?php

declare(strict_types=1);

namespace SmsEmulator\PhpUnit;

/**
 * A test's credit budget, on the test itself (or its class): `#[CostBudget(3)]` fails a test of SmsWorld whose world
 * spent more than 3 credits, with the world's top spenders. A method's budget wins over its class's; none by default.
 */
#[\Attribute(\Attribute::TARGET_CLASS | \Attribute::TARGET_METHOD)]
final class CostBudget
{
    public function __construct(public readonly int $credits)
    {
        self::checked($credits, '#[CostBudget]');
    }

    /** A budget as given (`$where` names it): credits from 0, as a negative budget could never be met. */
    public static function checked(int $credits, string $where): int
    {
        if ($credits < 0) {
            throw new \InvalidArgumentException(Settings::ERROR_PREFIX . "$where takes a whole number of credits from 0, not $credits");
        }
        return $credits;
    }
}
