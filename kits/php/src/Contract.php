<?php

declare(strict_types=1);

namespace SmsEmulator\PhpUnit;

/**
 * The one kit contract (test-vectors/kit-contract.json), read where this kit finds it: the copy its package carries,
 * else the checkout's. The resolution order's error, the start arguments and the timeline rule come from it.
 */
final class Contract
{
    private static ?array $contract = null;

    public static function path(): string
    {
        foreach ([__DIR__ . '/../resources/kit-contract.json', __DIR__ . '/../../../test-vectors/kit-contract.json'] as $path) {
            if (is_file($path)) {
                return $path;
            }
        }
        throw new EmulatorException(Settings::ERROR_PREFIX . 'the kit contract is missing: reinstall smsemulator/phpunit-kit');
    }

    public static function get(): array
    {
        return self::$contract ??= json_decode((string) file_get_contents(self::path()), true, 512, JSON_THROW_ON_ERROR);
    }

    /** The file name of a failing test's timeline, by the contract's rule: `sms-emulator-timeline-<test>.html`. */
    public static function timelineFile(string $testId): string
    {
        $timeline = self::get()['timeline'];
        $prefix = 'sms-emulator-timeline-';
        $suffix = '.html';
        $name = preg_replace('/[^A-Za-z0-9_.-]+/', '_', $testId) ?? '';
        $room = $timeline['maxLength'] - strlen($prefix) - strlen($suffix);
        // Cut from the front: the end of a test's id names the test.
        return $prefix . substr($name, max(0, strlen($name) - $room)) . $suffix;
    }
}
