<?php

declare(strict_types=1);

namespace SmsEmulator\PhpUnit;

/** A count with its noun, as the kit's cost failures write it: `1 credit`, `2 credits`, `1 segment`. */
final class Plural
{
    public static function count(int $count, string $noun): string
    {
        return "$count $noun" . ($count === 1 ? '' : 's');
    }
}
