<?php

declare(strict_types=1);

namespace SmsEmulator\PhpUnit;

/** The emulator could not be found, started or reached; the message says what was tried and what to do. */
class EmulatorException extends \RuntimeException
{
}
