<?php

declare(strict_types=1);

namespace SmsEmulator\PhpUnit;

/** A control call the emulator refused: its status and the catalogued error code and description it answered. */
final class ControlException extends \RuntimeException
{
    public function __construct(public readonly int $status, public readonly string $errorCode, string $description)
    {
        parent::__construct(Settings::ERROR_PREFIX . "$status $errorCode: $description");
    }
}
