<?php

declare(strict_types=1);

namespace SmsEmulator\PhpUnit;

/** No HTTP answer at all: the connection was refused, reset or cut (a network fault the test asked for, or no emulator). */
final class TransportException extends EmulatorException
{
}
