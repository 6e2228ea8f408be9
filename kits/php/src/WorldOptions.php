<?php

declare(strict_types=1);

namespace SmsEmulator\PhpUnit;

/**
 * One test's (or one test class's) world settings, as World::create names them, on the test itself:
 * `#[WorldOptions(balance: 0, startTime: '2026-11-23T08:00:00+02:00')]`. A method's settings win over its class's, and
 * both over `smsWorldOptions()`.
 */
#[\Attribute(\Attribute::TARGET_CLASS | \Attribute::TARGET_METHOD)]
final class WorldOptions
{
    /** @var array<string, mixed> */
    public readonly array $options;

    public function __construct(mixed ...$options)
    {
        $this->options = $options;
    }
}
