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

    /**
     * The file name of a failing test's timeline, by the contract's rule: `sms-emulator-timeline-<test>.html`, the id
     * made safe; a longer one keeps the test's own name whole, behind a hash of the whole id and as much of its front
     * as fits.
     */
    public static function timelineFile(string $testId): string
    {
        $timeline = self::get()['timeline'];
        $prefix = 'sms-emulator-timeline-';
        $suffix = '.html';
        $whole = self::safeName($testId);
        $room = $timeline['maxLength'] - strlen($prefix) - strlen($suffix);
        if (strlen($whole) <= $room) {
            return $prefix . $whole . $suffix;
        }
        $hash = substr(hash('sha256', $testId), 0, $timeline['hashLength']);
        $start = self::testNameStart($testId);
        $name = substr(self::safeName(substr($testId, $start)), 0, $room - strlen($hash) - 1);
        $front = substr(self::safeName(substr($testId, 0, $start)), 0, max(0, $room - strlen($hash) - 2 - strlen($name)));
        return $prefix . ($front === '' ? '' : "$front-") . "$hash-$name" . $suffix;
    }

    /** Where the test's own name starts: after the last `::` or `/` outside square brackets (a parameter may hold either). */
    private static function testNameStart(string $testId): int
    {
        $depth = 0;
        $start = 0;
        for ($index = 0, $length = strlen($testId); $index < $length; $index++) {
            $char = $testId[$index];
            if ($char === '[') {
                $depth++;
            } elseif ($char === ']') {
                $depth = max(0, $depth - 1);
            } elseif ($depth === 0 && $char === '/') {
                $start = $index + 1;
            } elseif ($depth === 0 && substr($testId, $index, 2) === '::') {
                $start = $index + 2;
            }
        }
        return $start;
    }

    private static function safeName(string $text): string
    {
        return preg_replace('/[^A-Za-z0-9_.-]+/', '_', $text) ?? '';
    }
}
