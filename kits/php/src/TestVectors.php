<?php

declare(strict_types=1);

namespace SmsEmulator\PhpUnit;

/**
 * The repository's shared test vectors (`signing.json`, `schedule.json`, `webhooks.json`, …, each
 * `{description, cases}`, and `kit-contract.json`), shipped in this package (`resources/test-vectors/`) so an app's own
 * signer, schedule writer or webhook parser can be checked against the cases the emulator and every kit pass; read
 * from the checkout's `test-vectors/` when the kit runs from a clone.
 */
final class TestVectors
{
    public static function path(string $name): string
    {
        foreach ([__DIR__ . '/../resources/test-vectors', __DIR__ . '/../../../test-vectors'] as $folder) {
            if (is_file("$folder/$name")) {
                return "$folder/$name";
            }
        }
        throw new EmulatorException(Settings::ERROR_PREFIX . "the kit carries no test-vectors/$name: reinstall smsemulator/phpunit-kit");
    }

    /** One file, decoded (objects as arrays). */
    public static function read(string $name): array
    {
        return json_decode((string) file_get_contents(self::path($name)), true, 512, JSON_THROW_ON_ERROR);
    }
}
