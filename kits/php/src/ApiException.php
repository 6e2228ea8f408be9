<?php

declare(strict_types=1);

namespace SmsEmulator\PhpUnit;

/** An API answer other than 2xx: the status, the error code (`message` of the spec's error body) and its description. */
final class ApiException extends \RuntimeException
{
    public function __construct(
        public readonly int $status,
        public readonly string $errorCode,
        public readonly string $description,
        public readonly ?int $retryAfter = null,
    ) {
        parent::__construct("$status $errorCode: $description");
    }
}
